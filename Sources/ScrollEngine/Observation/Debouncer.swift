/// Fires once after a stream of changes has been quiet for `interval` seconds.
///
/// Driven entirely by the instants passed in: `noteChange(at:)` restarts the wait and
/// `deadline` says when the owner should call `fire(at:)`.
public struct Debouncer: Hashable, Sendable {
    /// The quiet interval, in seconds.
    public var interval: Double
    /// The last change not yet followed by a firing.
    public private(set) var lastChange: ScrollInstant?

    /// Creates a debouncer with the given quiet interval.
    public init(interval: Double) {
        self.interval = interval
    }

    /// Records a change at `time`, restarting the wait.
    public mutating func noteChange(at time: ScrollInstant) {
        lastChange = time
    }

    /// When the debouncer fires unless another change comes first; nil when nothing is pending.
    public var deadline: ScrollInstant? { lastChange.map { $0 + interval } }

    /// Fires if the deadline has passed by `time`: returns true once per quiet period.
    public mutating func fire(at time: ScrollInstant) -> Bool {
        guard let deadline, deadline <= time else { return false }
        lastChange = nil
        return true
    }
}
