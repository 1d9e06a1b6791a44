/// A moment on the caller's monotonic clock, in seconds since an arbitrary origin.
///
/// The engine never reads a clock: every input and every `advance(to:)` carries one of these.
public struct ScrollInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since the caller's origin.
    public var seconds: Double

    /// Creates an instant `seconds` after the caller's origin.
    public init(seconds: Double) {
        self.seconds = seconds
    }

    /// The caller's origin.
    public static let zero = ScrollInstant(seconds: 0)

    /// The instant `seconds` later.
    public static func + (lhs: ScrollInstant, rhs: Double) -> ScrollInstant {
        ScrollInstant(seconds: lhs.seconds + rhs)
    }

    /// The seconds from `rhs` to `lhs`.
    public static func - (lhs: ScrollInstant, rhs: ScrollInstant) -> Double {
        lhs.seconds - rhs.seconds
    }

    /// Orders instants by time.
    public static func < (lhs: ScrollInstant, rhs: ScrollInstant) -> Bool {
        lhs.seconds < rhs.seconds
    }

    /// The seconds, for logs.
    public var description: String { "\(seconds)s" }
}
