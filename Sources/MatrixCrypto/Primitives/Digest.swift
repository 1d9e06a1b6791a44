/// SHA-2 digests and HMAC-SHA-256, from OpenSSL. Each throws `CryptoFailure` when the library
/// refuses (a broken configuration), never traps: they run on what the network sends.
public enum Digest {
    /// SHA-256 of `data` (32 bytes).
    public static func sha256(_ data: [UInt8]) throws -> [UInt8] { try LibCrypto.sha256(data) }

    /// SHA-512 of `data` (64 bytes).
    public static func sha512(_ data: [UInt8]) throws -> [UInt8] { try LibCrypto.sha512(data) }

    /// HMAC-SHA-256 of `data` under `key` (32 bytes).
    public static func hmacSHA256(key: [UInt8], data: [UInt8]) throws -> [UInt8] { try LibCrypto.hmacSHA256(key: key, data: data) }
}
