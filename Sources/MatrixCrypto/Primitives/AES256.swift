/// AES with a 256-bit key: CBC with PKCS#7 padding (Olm and Megolm messages) and CTR (secret
/// storage, key backup's exports). Keys are 32 bytes, IVs 16.
public enum AES256 {
    /// Encrypts with CBC and PKCS#7 padding.
    public static func encryptCBC(key: [UInt8], iv: [UInt8], plaintext: [UInt8]) throws -> [UInt8] {
        try LibCrypto.aes256CBC(encrypting: true, key: key, iv: iv, data: plaintext)
    }

    /// Decrypts CBC; throws when the padding does not check (a wrong key or a damaged message).
    public static func decryptCBC(key: [UInt8], iv: [UInt8], ciphertext: [UInt8]) throws -> [UInt8] {
        guard !ciphertext.isEmpty, ciphertext.count % 16 == 0 else { throw CryptoFailure("AES-256-CBC ciphertext length") }
        return try LibCrypto.aes256CBC(encrypting: false, key: key, iv: iv, data: ciphertext)
    }

    /// Encrypts or decrypts with CTR (the same operation).
    public static func ctr(key: [UInt8], iv: [UInt8], data: [UInt8]) throws -> [UInt8] {
        try LibCrypto.aes256CTR(key: key, iv: iv, data: data)
    }
}
