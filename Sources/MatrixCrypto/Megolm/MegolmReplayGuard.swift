/// The spec's replay check for Megolm ("m.megolm.v1.aes-sha2"): a message index of a session
/// is used by one event only. The same event decrypted again (a resync, a scroll back) is fine;
/// another event at an index already taken is a replay attack and must not be shown as
/// genuine. Pure bookkeeping: record only messages that decrypted.
public struct MegolmReplayGuard: Sendable, Equatable, Codable {
    /// What the guard makes of a decrypted message.
    public enum Verdict: Sendable, Equatable {
        /// The first event at this index: recorded.
        case first
        /// This same event was seen at this index before: fine.
        case seenBefore
        /// A different event already used this index: a replay of that event.
        case replay(ofEventID: String)
    }

    /// Event id per message index, per session id.
    private var eventIDs: [String: [UInt32: String]] = [:]

    /// A guard that has seen nothing yet.
    public init() {}

    /// Checks the event `eventID`, decrypted at `messageIndex` of `sessionID`, and records it when
    /// it is the first at that index.
    public mutating func check(sessionID: String, messageIndex: UInt32, eventID: String) -> Verdict {
        if let known = eventIDs[sessionID]?[messageIndex] {
            return known == eventID ? .seenBefore : .replay(ofEventID: known)
        }
        eventIDs[sessionID, default: [:]][messageIndex] = eventID
        return .first
    }

    /// How many (session, index) pairs are recorded.
    public var count: Int { eventIDs.values.reduce(0) { $0 + $1.count } }
}
