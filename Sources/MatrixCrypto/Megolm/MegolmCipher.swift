/// Megolm's `m.megolm.v1.aes-sha2` cipher: from the ratchet's value at a message's index,
/// HKDF-SHA-256 (no salt, info "MEGOLM_KEYS") gives 80 bytes: the AES-256 key, the HMAC key
/// and the IV; the plaintext is AES-256-CBC encrypted and the message's bytes MACed with
/// HMAC-SHA-256, truncated to 8 bytes.
enum MegolmCipher {
    private static let info = Array("MEGOLM_KEYS".utf8)

    /// The three keys of one message.
    struct Keys {
        let aesKey: [UInt8]
        let macKey: [UInt8]
        let iv: [UInt8]

        init(_ ratchet: MegolmRatchet) throws {
            let derived = try KeyDerivation.hkdfSHA256(key: ratchet.bytes, salt: [], info: MegolmCipher.info, length: 80)
            aesKey = Array(derived[0 ..< 32])
            macKey = Array(derived[32 ..< 64])
            iv = Array(derived[64 ..< 80])
        }

        /// The truncated MAC of `bytes`.
        func mac(_ bytes: [UInt8]) throws -> [UInt8] { Array(try Digest.hmacSHA256(key: macKey, data: bytes).prefix(MegolmMessage.macLength)) }
    }

    /// The message at `ratchet`'s index carrying `plaintext`, signed by `signingKey`.
    static func encrypt(_ plaintext: [UInt8], at ratchet: MegolmRatchet, signingKey: Ed25519KeyPair) throws -> MegolmMessage {
        let keys = try Keys(ratchet)
        let ciphertext = try AES256.encryptCBC(key: keys.aesKey, iv: keys.iv, plaintext: plaintext)
        let authenticated = MegolmMessage.authenticatedBytes(messageIndex: ratchet.index, ciphertext: ciphertext)
        let mac = try keys.mac(authenticated)
        let signature = try signingKey.sign(authenticated + mac)
        return MegolmMessage(authenticatedBytes: authenticated, messageIndex: ratchet.index, ciphertext: ciphertext,
                             mac: mac, signature: signature)
    }

    /// The plaintext of `message`, whose signature was already checked, with `ratchet` at its
    /// index. The MAC is compared in constant time before anything is decrypted.
    static func decrypt(_ message: MegolmMessage, at ratchet: MegolmRatchet) throws -> [UInt8] {
        let keys = try Keys(ratchet)
        guard ConstantTime.equal(try keys.mac(message.authenticatedBytes), message.mac) else {
            throw MegolmFailure(.badMAC, "the message's MAC does not check at index \(message.messageIndex)")
        }
        do {
            return try AES256.decryptCBC(key: keys.aesKey, iv: keys.iv, ciphertext: message.ciphertext)
        } catch {
            // The MAC checked, so the sender encrypted this damage itself.
            throw MegolmFailure(.badFormat, "the decrypted message's padding is damaged")
        }
    }
}
