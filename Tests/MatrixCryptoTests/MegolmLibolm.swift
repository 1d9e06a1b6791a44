import COlm
import XCTest
@testable import MatrixCrypto

/// libolm's failure, by its own name ("BAD_MESSAGE_MAC").
struct LibolmGroupError: Error, Equatable { let name: String }

/// libolm's outbound group session, the oracle for `MegolmOutboundSession`.
final class LibolmOutboundGroupSession {
    private let memory: UnsafeMutableRawPointer
    let session: OpaquePointer

    /// A session made from `random` (160 bytes: ratchet, then Ed25519 seed).
    init(random: [UInt8]) throws {
        memory = UnsafeMutableRawPointer.allocate(byteCount: olm_outbound_group_session_size(), alignment: 16)
        session = olm_outbound_group_session(memory)
        var bytes = random
        XCTAssertEqual(olm_init_outbound_group_session_random_length(session), 160)
        try check(olm_init_outbound_group_session(session, &bytes, bytes.count))
    }

    deinit {
        olm_clear_outbound_group_session(session)
        memory.deallocate()
    }

    private func check(_ result: Int) throws {
        if result == olm_error() { throw LibolmGroupError(name: String(cString: olm_outbound_group_session_last_error(session))) }
    }

    var messageIndex: UInt32 { olm_outbound_group_session_message_index(session) }

    var sessionID: String {
        var out = [UInt8](repeating: 0, count: olm_outbound_group_session_id_length(session))
        let length = olm_outbound_group_session_id(session, &out, out.count)
        return String(decoding: out.prefix(length), as: UTF8.self)
    }

    func sessionKey() throws -> String {
        var out = [UInt8](repeating: 0, count: olm_outbound_group_session_key_length(session))
        let length = olm_outbound_group_session_key(session, &out, out.count)
        try check(length)
        return String(decoding: out.prefix(length), as: UTF8.self)
    }

    func encrypt(_ plaintext: [UInt8]) throws -> String {
        var out = [UInt8](repeating: 0, count: olm_group_encrypt_message_length(session, plaintext.count))
        let length = plaintext.withUnsafeBufferPointer { olm_group_encrypt(session, $0.baseAddress, plaintext.count, &out, out.count) }
        try check(length)
        return String(decoding: out.prefix(length), as: UTF8.self)
    }

    /// Moves libolm's ratchet to `ratchet` (its index and state) through its pickle, which libolm
    /// encrypts with keys from HKDF-SHA-256 (info "Pickle"), AES-256-CBC and an 8-byte MAC: the
    /// only way to have it encrypt at index 2^24 + 1 without sending 2^24 messages first.
    func replaceRatchet(with ratchet: MegolmRatchet) throws {
        let key = [UInt8](repeating: 7, count: 32)
        var pickled = [UInt8](repeating: 0, count: olm_pickle_outbound_group_session_length(session))
        let length = olm_pickle_outbound_group_session(session, key, key.count, &pickled, pickled.count)
        try check(length)
        let sealed = try XCTUnwrap(UnpaddedBase64.decode(String(decoding: pickled.prefix(length), as: UTF8.self)))
        let keys = try KeyDerivation.hkdfSHA256(key: key, salt: [], info: Array("Pickle".utf8), length: 80)
        let (aesKey, macKey, iv) = (Array(keys[0 ..< 32]), Array(keys[32 ..< 64]), Array(keys[64 ..< 80]))
        var raw = try AES256.decryptCBC(key: aesKey, iv: iv, ciphertext: Array(sealed.dropLast(8)))
        // Pickle version (4 bytes), the ratchet's 128 bytes, its counter (big-endian), the key pair.
        raw.replaceSubrange(4 ..< 132, with: ratchet.bytes)
        raw.replaceSubrange(132 ..< 136, with: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: ratchet.index >> UInt32($0)) })
        let ciphertext = try AES256.encryptCBC(key: aesKey, iv: iv, plaintext: raw)
        var text = Array(UnpaddedBase64.encode(try ciphertext + Digest.hmacSHA256(key: macKey, data: ciphertext).prefix(8)).utf8)
        try check(olm_unpickle_outbound_group_session(session, key, key.count, &text, text.count))
    }
}

/// libolm's inbound group session, the oracle for `MegolmInboundSession`.
final class LibolmInboundGroupSession {
    private let memory: UnsafeMutableRawPointer
    let session: OpaquePointer

    /// A session from a signed session key, or (`imported`) from an exported one.
    init(key: String, imported: Bool = false) throws {
        memory = UnsafeMutableRawPointer.allocate(byteCount: olm_inbound_group_session_size(), alignment: 16)
        session = olm_inbound_group_session(memory)
        let bytes = Array(key.utf8)
        let result = imported
            ? olm_import_inbound_group_session(session, bytes, bytes.count)
            : olm_init_inbound_group_session(session, bytes, bytes.count)
        try check(result)
    }

    deinit {
        olm_clear_inbound_group_session(session)
        memory.deallocate()
    }

    private func check(_ result: Int) throws {
        if result == olm_error() { throw LibolmGroupError(name: String(cString: olm_inbound_group_session_last_error(session))) }
    }

    var firstKnownIndex: UInt32 { olm_inbound_group_session_first_known_index(session) }

    /// The plaintext and index of a base64 message.
    func decrypt(_ message: String) throws -> (plaintext: [UInt8], index: UInt32) {
        var scratch = Array(message.utf8)
        let maximum = olm_group_decrypt_max_plaintext_length(session, &scratch, scratch.count)
        try check(maximum)
        var text = Array(message.utf8)  // libolm decodes the base64 in place
        var out = [UInt8](repeating: 0, count: maximum)
        var index: UInt32 = 0
        let length = olm_group_decrypt(session, &text, text.count, &out, out.count, &index)
        try check(length)
        return (Array(out.prefix(length)), index)
    }

    func export(at index: UInt32) throws -> String {
        var out = [UInt8](repeating: 0, count: olm_export_inbound_group_session_length(session))
        let length = olm_export_inbound_group_session(session, &out, out.count, index)
        try check(length)
        return String(decoding: out.prefix(length), as: UTF8.self)
    }
}

