import ThreadModel

/// When our outbound Megolm session in a room must be replaced, from the room's
/// `m.room.encryption` settings: after `rotation_period_msgs` messages or `rotation_period_ms`
/// milliseconds (spec defaults 100 and one week). The room's state is anyone's to write, so the
/// settings are kept within bounds, as matrix-rust-sdk does: from 1 to 10,000 messages and at
/// least an hour, so a hostile room can neither make us share a new key for every message nor
/// keep one for ever. A member leaving also rotates; that is the caller's to see.
public struct MegolmRotationPolicy: Sendable, Equatable {
    /// The spec's default period: one week.
    public static let defaultPeriodMilliseconds: Int64 = 7 * 24 * 3600 * 1000
    /// The spec's default number of messages.
    public static let defaultPeriodMessages: Int64 = 100
    /// The bounds a room's settings are kept within.
    static let periodMillisecondsBounds: ClosedRange<Int64> = 3600 * 1000 ... Int64.max
    static let periodMessagesBounds: ClosedRange<Int64> = 1 ... 10_000

    /// How long a session is used, in milliseconds.
    public let periodMilliseconds: Int64
    /// How many messages a session encrypts.
    public let periodMessages: Int64

    /// A policy of the given periods (the defaults when nil), kept within bounds.
    public init(periodMilliseconds: Int64? = nil, periodMessages: Int64? = nil) {
        self.periodMilliseconds = (periodMilliseconds ?? Self.defaultPeriodMilliseconds).clamped(to: Self.periodMillisecondsBounds)
        self.periodMessages = (periodMessages ?? Self.defaultPeriodMessages).clamped(to: Self.periodMessagesBounds)
    }

    /// The policy of an `m.room.encryption` event's content; fields that are missing or not whole
    /// numbers take the defaults.
    public init(roomEncryption content: JSONValue) {
        self.init(periodMilliseconds: content["rotation_period_ms"]?.int.map(Int64.init),
                  periodMessages: content["rotation_period_msgs"]?.int.map(Int64.init))
    }

    /// Whether a session that has sent `messagesSent` messages and is `ageMilliseconds` old must
    /// be replaced before the next message. A negative age (the clock went back) cannot be trusted,
    /// so it rotates too.
    public func shouldRotate(messagesSent: UInt32, ageMilliseconds: Int64) -> Bool {
        Int64(messagesSent) >= periodMessages || ageMilliseconds < 0 || ageMilliseconds >= periodMilliseconds
    }

    /// Whether `session` must be replaced before the next message, at `nowMilliseconds`.
    public func shouldRotate(_ session: MegolmOutboundSession, nowMilliseconds: Int64) -> Bool {
        let (age, overflow) = nowMilliseconds.subtractingReportingOverflow(session.createdAtMilliseconds)
        // An age past Int64's range comes only from nonsense times: rotate rather than trust it.
        return overflow || shouldRotate(messagesSent: session.messagesSent, ageMilliseconds: age)
    }
}

private extension Int64 {
    func clamped(to bounds: ClosedRange<Int64>) -> Int64 { Swift.min(Swift.max(self, bounds.lowerBound), bounds.upperBound) }
}
