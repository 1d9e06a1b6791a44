import ThreadModel

/// `m.secret_storage.v1.aes-hmac-sha2` (Client-Server API, "Secret storage"): HKDF-SHA-256 of
/// the storage key with 32 zero bytes of salt and the secret's name as info gives 64 bytes, an
/// AES-256 key and an HMAC-SHA-256 key; the secret is AES-CTR encrypted under an IV whose bit 63
/// is clear, and the MAC covers the ciphertext.
public enum SecretStorageCipher {
    /// Ciphertexts longer than this are refused unread: secrets are keys, a few dozen bytes.
    static let maximumCiphertextCharacters = 65_536

    /// One secret encrypted for one key, as it sits under `encrypted.<key id>` of the secret's
    /// account-data event: `iv`, `ciphertext` and `mac` in base64.
    public struct Encrypted: Sendable, Equatable {
        public let iv: [UInt8]
        public let ciphertext: [UInt8]
        public let mac: [UInt8]

        public init(iv: [UInt8], ciphertext: [UInt8], mac: [UInt8]) {
            self.iv = iv
            self.ciphertext = ciphertext
            self.mac = mac
        }

        /// Reads `{"iv", "ciphertext", "mac"}`.
        public init(json: JSONValue) throws {
            guard let ivText = json["iv"]?.string, let ivBytes = UnpaddedBase64.decode(ivText), ivBytes.count == 16 else {
                throw SecretStorageRefusal("the stored secret's IV is not 16 bytes of base64")
            }
            guard let text = json["ciphertext"]?.string, text.utf8.count <= SecretStorageCipher.maximumCiphertextCharacters,
                  let ciphertext = UnpaddedBase64.decode(text) else {
                throw SecretStorageRefusal("the stored secret's ciphertext is not base64 of a reasonable length")
            }
            guard let macText = json["mac"]?.string, let macBytes = UnpaddedBase64.decode(macText), macBytes.count == 32 else {
                throw SecretStorageRefusal("the stored secret's MAC is not 32 bytes of base64")
            }
            self.init(iv: ivBytes, ciphertext: ciphertext, mac: macBytes)
        }

        /// The JSON object `init(json:)` reads.
        public var json: JSONValue {
            [
                "iv": .string(UnpaddedBase64.encode(iv)),
                "ciphertext": .string(UnpaddedBase64.encode(ciphertext)),
                "mac": .string(UnpaddedBase64.encode(mac)),
            ]
        }
    }

    /// Encrypts `secret` for `name` under the 32-byte storage `key`, with an IV from `random`.
    public static func encrypt(_ secret: [UInt8], name: String, key: [UInt8], random: inout some RandomSource) throws -> Encrypted {
        var iv = try random.bytes(16)
        // Bit 63 clear, so no AES-CTR implementation's 64-bit counter ever wraps differently.
        iv[8] &= 0x7f
        return try encrypt(secret, name: name, key: key, iv: iv)
    }

    /// Encrypts under a given IV (the key check's fixed one, and known-answer tests). Internal:
    /// a caller reusing an IV under one key would reuse the CTR key stream.
    static func encrypt(_ secret: [UInt8], name: String, key: [UInt8], iv: [UInt8]) throws -> Encrypted {
        let (aesKey, macKey) = try derivedKeys(key: key, name: name)
        let ciphertext = try AES256.ctr(key: aesKey, iv: iv, data: secret)
        return Encrypted(iv: iv, ciphertext: ciphertext, mac: try Digest.hmacSHA256(key: macKey, data: ciphertext))
    }

    /// The secret `name` from `encrypted`; refused, unread, when the MAC does not check (a wrong
    /// key, a secret stored under another name, or a changed ciphertext).
    public static func decrypt(_ encrypted: Encrypted, name: String, key: [UInt8]) throws -> [UInt8] {
        let (aesKey, macKey) = try derivedKeys(key: key, name: name)
        guard ConstantTime.equal(try Digest.hmacSHA256(key: macKey, data: encrypted.ciphertext), encrypted.mac) else {
            throw SecretStorageRefusal("the secret \(name) does not decrypt with this key (its MAC does not check)")
        }
        return try AES256.ctr(key: aesKey, iv: encrypted.iv, data: encrypted.ciphertext)
    }

    /// HKDF's 64 bytes for `name`, split into the AES and HMAC keys.
    static func derivedKeys(key: [UInt8], name: String) throws -> (aes: [UInt8], mac: [UInt8]) {
        guard key.count == 32 else { throw SecretStorageRefusal("a secret storage key is 32 bytes") }
        let bytes = try KeyDerivation.hkdfSHA256(key: key, salt: [UInt8](repeating: 0, count: 32), info: Array(name.utf8), length: 64)
        return (Array(bytes[0 ..< 32]), Array(bytes[32 ..< 64]))
    }
}
