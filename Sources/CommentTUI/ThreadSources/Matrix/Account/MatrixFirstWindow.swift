import Foundation
import ThreadModel

/// Home's first screen on a cold start: the account's most recently active rooms, asked for
/// through simplified sliding sync (MSC4186), which a server answers in tens of milliseconds
/// where the whole initial `/sync` of hundreds of rooms takes seconds.
///
/// Only the list's first rows come this way, and without their counts (Synapse's are all 0):
/// the account's one sync still makes its initial `/sync` (the position every room and later
/// answer goes on from), and that answer, whole, replaces what the window said (`AccountLink`).
/// The window's answer is read into the shape of a `/sync` answer, so `MatrixAccountRooms` has
/// one way in, with its bounds and checks, for both.
/// Pure: the request's body and the reading of its answer; `AccountLink` carries it out.
public enum MatrixFirstWindow {
    /// Rooms asked for: more than any terminal shows at once (two rows each).
    public static let rooms = 60

    /// The endpoint, under `/_matrix/client` (Synapse serves it from 1.114 on).
    static let path = ["unstable", "org.matrix.simplified_msc3575", "sync"]

    /// Events of timeline per room: the newest message is usually among them.
    static let timelineLimit = 3

    /// The request's body: one list of every room by recency (`bump_stamp`), the state a row
    /// shows, and the account data that says which rooms are direct.
    static func body(rooms: Int = Self.rooms) -> JSONValue {
        let types = ["m.room.name", "m.room.canonical_alias", "m.room.encryption", "m.room.join_rules"]
        // The account's own member event: a room it was kicked or banned from is listed too.
        let state: [JSONValue] = types.map { JSONValue.array([.string($0), ""]) }
            + [["m.room.member", "$LAZY"], ["m.room.member", "$ME"]]
        return [
            "lists": [
                "home": [
                    "ranges": [[0, .number(Double(max(rooms, 1) - 1))]],
                    "timeline_limit": .number(Double(timelineLimit)),
                    "required_state": .array(state),
                ],
            ],
            "extensions": ["account_data": ["enabled": true, "lists": ["home"]]],
        ]
    }

    /// What the window said, read into the shape of a `/sync` answer (no `next_batch`: it is no
    /// position), and how many rooms the account has in all (joined and invited), if it said.
    struct Reading {
        var answer: JSONValue
        var total: Int?
    }

    /// Reads a window's answer for the account `me`. Values of the wrong shape are left out, as
    /// `MatrixAccountRooms` leaves them out of a `/sync` answer; a room is listed as joined only
    /// where the account's own member event says it is (not one it was kicked from).
    static func read(_ window: JSONValue, me: String, limits: MatrixAccountRooms.Limits = .init()) -> Reading {
        var joined: [String: JSONValue] = [:]
        var invited: [String: JSONValue] = [:]
        for (roomID, room) in window["rooms"]?.object ?? [:] {
            if let stripped = room["invite_state"]?.array {
                invited[roomID] = ["invite_state": ["events": .array(stripped)]]
            } else if isJoined(room, me: me) {
                joined[roomID] = joinedEntry(room, limits: limits)
            }
        }
        let accountData = window["extensions"]?["account_data"]?["global"]?.array ?? []
        let answer: JSONValue = [
            "rooms": ["join": .object(joined), "invite": .object(invited)],
            "account_data": ["events": .array(accountData)],
        ]
        let total = MatrixAccountRooms.count(window["lists"]?["home"]?["count"]).map { min($0, limits.rooms) }
        return Reading(answer: answer, total: total)
    }

    /// Whether the room's state has the account's member event saying it is joined.
    private static func isJoined(_ room: JSONValue, me: String) -> Bool {
        (room["required_state"]?.array ?? []).contains {
            $0["type"]?.string == "m.room.member" && $0["state_key"]?.string == me && $0["content"]?["membership"]?.string == "join"
        }
    }

    /// A joined room's entry as `/sync` has it: the summary (heroes, member counts), the state,
    /// the timeline, the counts. The heroes' names, which the window gives beside them, become
    /// their member events, as lazy loading would have sent them.
    private static func joinedEntry(_ room: JSONValue, limits: MatrixAccountRooms.Limits) -> JSONValue {
        var summary: [String: JSONValue] = [:]
        var state: [JSONValue] = []
        if let heroes = room["heroes"]?.array {
            // As many as a row keeps: a server's thousands would cost time and nothing else.
            let kept = heroes.lazy.filter { $0["user_id"]?.string != nil }.prefix(limits.heroes)
            summary["m.heroes"] = .array(kept.compactMap { $0["user_id"] })
            for hero in kept {
                var content: [String: JSONValue] = ["membership": "join"]
                if let name = hero["displayname"]?.string { content["displayname"] = .string(name) }
                state.append(["type": "m.room.member", "state_key": hero["user_id"] ?? "", "content": .object(content)])
            }
        }
        // After the heroes' events: a member event of the room's own is the truer one.
        state += room["required_state"]?.array ?? []
        if let joined = room["joined_count"] { summary["m.joined_member_count"] = joined }
        if let invited = room["invited_count"] { summary["m.invited_member_count"] = invited }
        // No counts: Synapse sends 0 for every room (its sliding sync leaves them to clients), so
        // a window's rows say their counts are still coming (`ThreadSummary.countsPending`).
        return [
            "summary": .object(summary),
            "state": ["events": .array(state)],
            "timeline": ["events": room["timeline"] ?? []],
        ]
    }
}
