import ScrollEngine

/// Desktop notifications as a client raises them: the policy that decides, and the escape the
/// terminal takes. Hand it each arrival that may call for the reader and each focus report;
/// write what `escape(for:at:)` returns after the next frame (`Frame.notification`).
public struct DesktopNotifications: Sendable {
    /// Which arrivals notify, and what they say.
    public var policy: NotificationPolicy
    /// The escape the terminal takes (`TerminalNotification.style(environment:)`).
    public var style: TerminalNotification.Style
    /// Notifications raised so far (kitty's are told apart by it), shared by every copy: the
    /// client's threads each hold one, and their ids must not collide.
    public var raised: Int { counter.value }
    private let counter = RaisedCount()

    /// A count shared by copies (one client raises all of them on one thread).
    private final class RaisedCount: @unchecked Sendable {
        var value = 0
    }

    public init(policy: NotificationPolicy = NotificationPolicy(), style: TerminalNotification.Style) {
        self.policy = policy
        self.style = style
    }

    /// Takes a focus report from the terminal (mode 1004).
    public mutating func terminalFocusChanged(_ focused: Bool, at time: ScrollInstant) {
        policy.terminalFocusChanged(focused, at: time)
    }

    /// The bytes to write after the next frame for `arrival` at `time`, or nil when it raises
    /// none. In the `.bell` style that is BEL: a frame that rings the bell anyway rings it once.
    public mutating func escape(for arrival: NotificationArrival, at time: ScrollInstant) -> [UInt8]? {
        guard let text = policy.decide(arrival, at: time) else { return nil }
        counter.value += 1
        return TerminalNotification.bytes(text, style: style, identifier: counter.value)
    }
}
