/// Comparisons of secrets (MACs, keys, recovery-key checks) in time that does not depend on
/// where the bytes first differ, so a timing difference tells an attacker nothing.
public enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes; the lengths themselves are not secret.
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool { LibCrypto.constantTimeEqual(a, b) }
}
