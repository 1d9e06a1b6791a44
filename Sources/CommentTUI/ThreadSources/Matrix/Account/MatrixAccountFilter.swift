import Foundation
import ThreadModel

/// The filter of an account's one sync: lean for every room, so an account in hundreds of
/// rooms syncs quickly, yet enough for a list of them (names, counts, previews, typing,
/// invites) and for each open room to follow its timeline.
///
/// A few events of timeline per room (a room with more since the last sync is `limited`, and an
/// open room reads the rest back), members loaded lazily (only those the events need), only the
/// state a list and a thread show, typing and receipts, and the account data unread needs.
public enum MatrixAccountFilter {
    /// Events of timeline per room and sync.
    public static let timelineLimit = 10

    /// The state types kept (a room's name and alias for its row, encryption, who may join,
    /// members lazily, the pinned post, the topic, who may notify the room).
    public static let stateTypes = [
        "m.room.name", "m.room.canonical_alias", "m.room.encryption", "m.room.join_rules",
        "m.room.member", "m.room.pinned_events", "m.room.topic", "m.room.power_levels",
    ]

    /// The filter, as `/sync` takes it inline.
    public static let lean: JSONValue = [
        "presence": ["not_types": ["*"]],
        "account_data": ["types": ["m.direct"]],
        "room": [
            // Unread counts per post (Matrix thread) as well as for the room's own timeline.
            "timeline": ["limit": .number(Double(timelineLimit)), "lazy_load_members": true, "unread_thread_notifications": true],
            "state": ["types": .array(stateTypes.map(JSONValue.string)), "lazy_load_members": true],
            "ephemeral": ["types": ["m.typing", "m.receipt"]],
            "account_data": ["types": ["m.fully_read"]],
        ],
    ]
}

extension MatrixAccountFilter {
    /// A filter for one look at one room (an initial sync asking a single question): one
    /// timeline event, the state `stateTypes` names, the ephemeral types given (none by default),
    /// and nothing of presence or account data.
    static func oneRoom(_ room: String, stateTypes: [String], ephemeralTypes: [String]? = nil) -> JSONValue {
        [
            "presence": ["not_types": ["*"]],
            "account_data": ["not_types": ["*"]],
            "room": [
                "rooms": [.string(room)],
                "timeline": ["limit": 1],
                "state": ["types": .array(stateTypes.map { .string($0) })],
                "ephemeral": ephemeralTypes.map { ["types": .array($0.map { .string($0) })] } ?? ["not_types": ["*"]],
                "account_data": ["not_types": ["*"]],
            ],
        ]
    }
}
