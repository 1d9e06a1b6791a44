import COlm
import Foundation
import ThreadModel
@testable import MatrixCrypto

/// `count` bytes from a seeded generator.
func olmTestBytes(_ count: Int, _ seeded: inout SeededRandom) -> [UInt8] {
    (0 ..< count).map { _ in UInt8.random(in: 0 ... 255, using: &seeded) }
}

/// Why libolm refused, as its own words.
struct LibolmRefusal: Error, CustomStringConvertible {
    let description: String
}

/// A libolm account (the oracle), kept in memory of its own.
final class LibolmAccount {
    let memory: UnsafeMutableRawPointer
    let account: OpaquePointer

    init(random: [UInt8]) throws {
        memory = .allocate(byteCount: olm_account_size(), alignment: 16)
        account = olm_account(memory)
        var bytes = random
        try check(olm_create_account(account, &bytes, bytes.count))
    }

    deinit {
        olm_clear_account(account)
        memory.deallocate()
    }

    private func check(_ result: Int) throws {
        if result == olm_error() { throw LibolmRefusal(description: String(cString: olm_account_last_error(account))) }
    }

    private func text(length: Int, _ fill: (UnsafeMutableRawPointer, Int) -> Int) throws -> String {
        var out = [UInt8](repeating: 0, count: length)
        let written = out.withUnsafeMutableBytes { fill($0.baseAddress!, length) }
        try check(written)
        return String(decoding: out.prefix(written), as: UTF8.self)
    }

    var identityKeys: JSONValue {
        get throws {
            try JSONValue(parsing: Data(text(length: olm_account_identity_keys_length(account)) { olm_account_identity_keys(account, $0, $1) }.utf8))
        }
    }

    func generateOneTimeKeys(_ count: Int, random: [UInt8]) throws {
        var bytes = random
        try check(olm_account_generate_one_time_keys(account, count, &bytes, bytes.count))
    }

    var oneTimeKeys: JSONValue {
        get throws {
            try JSONValue(parsing: Data(text(length: olm_account_one_time_keys_length(account)) { olm_account_one_time_keys(account, $0, $1) }.utf8))
        }
    }

    func generateFallbackKey(random: [UInt8]) throws {
        var bytes = random
        try check(olm_account_generate_fallback_key(account, &bytes, bytes.count))
    }

    var unpublishedFallbackKey: JSONValue {
        get throws {
            try JSONValue(parsing: Data(text(length: olm_account_unpublished_fallback_key_length(account)) {
                olm_account_unpublished_fallback_key(account, $0, $1)
            }.utf8))
        }
    }

    func markKeysAsPublished() { _ = olm_account_mark_keys_as_published(account) }

    func forgetOldFallbackKey() { olm_account_forget_old_fallback_key(account) }

    func sign(_ message: [UInt8]) throws -> String {
        try text(length: olm_account_signature_length(account)) { out, length in
            message.withUnsafeBytes { olm_account_sign(account, $0.baseAddress, message.count, out, length) }
        }
    }

    func removeOneTimeKeys(usedBy session: LibolmSession) throws { try check(olm_remove_one_time_keys(account, session.session)) }
}

/// A libolm session (the oracle).
final class LibolmSession {
    let memory: UnsafeMutableRawPointer
    let session: OpaquePointer

    private init() {
        memory = .allocate(byteCount: olm_session_size(), alignment: 16)
        session = olm_session(memory)
    }

    deinit {
        olm_clear_session(session)
        memory.deallocate()
    }

    private func check(_ result: Int) throws {
        if result == olm_error() { throw LibolmRefusal(description: String(cString: olm_session_last_error(session))) }
    }

    static func outbound(account: LibolmAccount, theirIdentityKey: [UInt8], theirOneTimeKey: [UInt8], random: [UInt8]) throws -> LibolmSession {
        let created = LibolmSession()
        var identity = Array(UnpaddedBase64.encode(theirIdentityKey).utf8), oneTime = Array(UnpaddedBase64.encode(theirOneTimeKey).utf8)
        var bytes = random
        try created.check(olm_create_outbound_session(created.session, account.account, &identity, identity.count,
                                                       &oneTime, oneTime.count, &bytes, bytes.count))
        return created
    }

    /// A session from a pre-key message (libolm does not decrypt it here; `decrypt` does).
    static func inbound(account: LibolmAccount, message: OlmEncryptedMessage) throws -> LibolmSession {
        let created = LibolmSession()
        var body = Array(message.body.utf8)
        try created.check(olm_create_inbound_session(created.session, account.account, &body, body.count))
        return created
    }

    var sessionID: String {
        var out = [UInt8](repeating: 0, count: olm_session_id_length(session))
        let written = olm_session_id(session, &out, out.count)
        return String(decoding: out.prefix(written), as: UTF8.self)
    }

    func matches(_ message: OlmEncryptedMessage) -> Bool {
        var body = Array(message.body.utf8)
        return olm_matches_inbound_session(session, &body, body.count) == 1
    }

    var encryptRandomLength: Int { olm_encrypt_random_length(session) }

    func encrypt(_ plaintext: [UInt8], random: [UInt8]) throws -> OlmEncryptedMessage {
        let type = olm_encrypt_message_type(session)
        var out = [UInt8](repeating: 0, count: olm_encrypt_message_length(session, plaintext.count))
        var bytes = random
        let written = plaintext.withUnsafeBytes { olm_encrypt(session, $0.baseAddress, plaintext.count, &bytes, bytes.count, &out, out.count) }
        try check(written)
        return try readMessage(type: type, body: String(decoding: out.prefix(written), as: UTF8.self))
    }

    func decrypt(_ message: OlmEncryptedMessage) throws -> [UInt8] {
        var body = Array(message.body.utf8)
        let maximum = olm_decrypt_max_plaintext_length(session, message.kind.rawValue, &body, body.count)
        try check(maximum)
        body = Array(message.body.utf8)  // libolm decoded it in place
        var plaintext = [UInt8](repeating: 0, count: maximum)
        let written = olm_decrypt(session, message.kind.rawValue, &body, body.count, &plaintext, plaintext.count)
        try check(written)
        return Array(plaintext.prefix(written))
    }

    private func readMessage(type: Int, body: String) throws -> OlmEncryptedMessage {
        guard let message = OlmEncryptedMessage(type: type, body: body) else { throw LibolmRefusal(description: "libolm wrote an unreadable message") }
        return message
    }
}
