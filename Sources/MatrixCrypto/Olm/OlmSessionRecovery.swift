/// When to start a new Olm session with a device whose message no session of ours decrypts
/// (the spec's "recovering from undecryptable messages": a new session, announced with an
/// `m.dummy`): at most once an hour per device, as matrix-rust-sdk and nio do, so a peer that
/// keeps sending on a broken session cannot make us claim its keys for every message.
///
/// Pure: the caller gives the time (milliseconds since the epoch) and stores the value, so the
/// rule holds across restarts. Attempts older than the interval are dropped as others are
/// recorded, so it stays as small as the devices that broke within the last hour.
public struct OlmSessionRecovery: Codable, Sendable, Equatable {
    /// The least time between two new sessions for one device: an hour.
    public static let intervalMilliseconds: Int64 = 3600 * 1000

    /// The last new session started, by the device's Curve25519 key (unpadded base64).
    public private(set) var lastAttempts: [String: Int64] = [:]

    public init() {}

    /// Whether a new session with the device of `curve25519` is due at `nowMilliseconds`; when it
    /// is, the attempt is recorded (the caller stores this value before it claims a key). A time
    /// before the last attempt (the clock went back) is taken as due after the interval from now,
    /// never as "an hour has passed".
    public mutating func startsNewSession(with curve25519: String, nowMilliseconds: Int64) -> Bool {
        if let last = lastAttempts[curve25519] {
            let (age, overflow) = nowMilliseconds.subtractingReportingOverflow(last)
            if age < 0 || overflow {
                // The clock went back: count the interval from now.
                lastAttempts[curve25519] = nowMilliseconds
                return false
            }
            if age < Self.intervalMilliseconds { return false }
        }
        lastAttempts = lastAttempts.filter { _, time in
            let (age, overflow) = nowMilliseconds.subtractingReportingOverflow(time)
            return !overflow && age >= 0 && age < Self.intervalMilliseconds
        }
        lastAttempts[curve25519] = nowMilliseconds
        return true
    }
}
