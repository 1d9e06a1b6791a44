/// Keys derived from other secrets: HKDF for Olm's and secret storage's keys, PBKDF2 for a
/// passphrase.
public enum KeyDerivation {
    /// HKDF-SHA-256 (RFC 5869); an empty salt means 32 zero bytes, as the RFC says.
    public static func hkdfSHA256(key: [UInt8], salt: [UInt8], info: [UInt8], length: Int) throws -> [UInt8] {
        try LibCrypto.hkdfSHA256(key: key, salt: salt, info: info, length: length)
    }

    /// PBKDF2 with HMAC-SHA-512 (the spec's `m.pbkdf2` for secret storage passphrases).
    public static func pbkdf2SHA512(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) throws -> [UInt8] {
        try LibCrypto.pbkdf2(password: password, salt: salt, iterations: iterations, length: length, digest: .sha512)
    }

    /// PBKDF2 with HMAC-SHA-256 (key export files).
    public static func pbkdf2SHA256(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) throws -> [UInt8] {
        try LibCrypto.pbkdf2(password: password, salt: salt, iterations: iterations, length: length, digest: .sha256)
    }
}
