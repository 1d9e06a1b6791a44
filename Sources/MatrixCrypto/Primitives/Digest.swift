/// SHA-2 digests and HMAC-SHA-256, from OpenSSL.
public enum Digest {
    /// SHA-256 of `data` (32 bytes).
    public static func sha256(_ data: [UInt8]) -> [UInt8] { LibCrypto.sha256(data) }

    /// SHA-512 of `data` (64 bytes).
    public static func sha512(_ data: [UInt8]) -> [UInt8] { LibCrypto.sha512(data) }

    /// HMAC-SHA-256 of `data` under `key` (32 bytes).
    public static func hmacSHA256(key: [UInt8], data: [UInt8]) -> [UInt8] { LibCrypto.hmacSHA256(key: key, data: data) }
}
