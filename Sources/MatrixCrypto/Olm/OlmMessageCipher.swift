/// Olm's cipher for one message (`m.olm.v1.curve25519-aes-sha2`): HKDF-SHA-256 of the message
/// key with info "OLM_KEYS" gives an AES-256 key, an HMAC key and an IV; the plaintext is
/// AES-256-CBC encrypted and the framed message MACed with HMAC-SHA-256 cut to 8 bytes.
struct OlmMessageCipher {
    private let aesKey: [UInt8]
    private let macKey: [UInt8]
    private let iv: [UInt8]

    /// The cipher of a 32-byte message key.
    init(messageKey: [UInt8]) throws {
        let derived = try KeyDerivation.hkdfSHA256(key: messageKey, salt: [], info: Array("OLM_KEYS".utf8), length: 80)
        aesKey = Array(derived[0 ..< 32])
        macKey = Array(derived[32 ..< 64])
        iv = Array(derived[64 ..< 80])
    }

    /// The whole message (framing, ciphertext, MAC) for `plaintext` at `counter` under `ratchetKey`.
    func seal(_ plaintext: [UInt8], ratchetKey: [UInt8], counter: UInt32) throws -> [UInt8] {
        let ciphertext = try AES256.encryptCBC(key: aesKey, iv: iv, plaintext: plaintext)
        var bytes = OlmMessage(ratchetKey: ratchetKey, counter: counter, ciphertext: ciphertext).bytesBeforeMAC
        bytes += try Digest.hmacSHA256(key: macKey, data: bytes).prefix(OlmMessage.macLength)
        return bytes
    }

    /// The plaintext of a decoded message, after its MAC checks (in constant time).
    func open(_ message: OlmMessage, covered: ArraySlice<UInt8>, mac: [UInt8]) throws(OlmDecryptionError) -> [UInt8] {
        let expected: [UInt8]
        do { expected = Array(try Digest.hmacSHA256(key: macKey, data: Array(covered)).prefix(OlmMessage.macLength)) } catch {
            throw OlmDecryptionError(.libraryFailure, "HMAC-SHA-256")
        }
        guard ConstantTime.equal(expected, mac) else { throw OlmDecryptionError(.badMAC, "") }
        do {
            return try AES256.decryptCBC(key: aesKey, iv: iv, ciphertext: message.ciphertext)
        } catch {
            // The MAC checked, so the sender itself framed a bad ciphertext.
            throw OlmDecryptionError(.badFormat, "the ciphertext's padding does not check")
        }
    }
}
