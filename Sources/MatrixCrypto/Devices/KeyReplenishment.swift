/// How many one-time keys to make and upload, and whether a new fallback key is due, from what
/// sync says the server holds (`device_one_time_keys_count`, `device_unused_fallback_key_types`).
/// Pure: the caller makes the keys and uploads them.
///
/// The server should hold half of what the account can keep (libolm and vodozemac keep 100 and
/// aim for 50), so a burst of new sessions finds keys, and never more than the account holds,
/// or the oldest private keys would be dropped while their public halves are still handed out.
public struct KeyReplenishment: Sendable, Equatable {
    /// One-time keys to generate and upload now.
    public let oneTimeKeys: Int
    /// Whether to generate and upload a new fallback key (the server has no unused one).
    public let fallbackKey: Bool

    /// The most one-time keys an account keeps.
    public static let accountLimit = 100
    /// What the server should hold.
    public static let target = accountLimit / 2

    /// What to do, given the server's count of our `signed_curve25519` keys (nil when sync
    /// did not say: then nothing, as a missing count is not zero) and the unused fallback key types
    /// (nil when sync did not say).
    public init(serverCount: Int?, unusedFallbackTypes: [String]?) {
        if let serverCount {
            oneTimeKeys = max(0, Self.target - max(0, serverCount))
        } else {
            oneTimeKeys = 0
        }
        fallbackKey = unusedFallbackTypes.map { !$0.contains("signed_curve25519") } ?? false
    }
}
