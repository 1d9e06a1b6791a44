import Foundation
import ThreadModel
@testable import CommentTUI

/// Builds `/sync` answers in tests, event by event, in the shapes Synapse sends.
enum SyncAnswer {
    static func member(_ userID: String, _ name: String?, membership: String = "join", sender: String? = nil,
                       ts: Int? = nil, isDirect: Bool = false) -> JSONValue {
        var content: [String: JSONValue] = ["membership": .string(membership)]
        if let name { content["displayname"] = .string(name) }
        if isDirect { content["is_direct"] = true }
        var event: [String: JSONValue] = ["type": "m.room.member", "state_key": .string(userID),
                                          "sender": .string(sender ?? userID), "content": .object(content)]
        if let ts { event["origin_server_ts"] = .number(Double(ts)); event["event_id"] = .string("$m\(ts)") }
        return .object(event)
    }

    static func state(_ type: String, _ content: JSONValue, sender: String = "@bo:a.org") -> JSONValue {
        ["type": .string(type), "state_key": "", "sender": .string(sender), "content": content]
    }

    static func message(_ id: String, from sender: String, _ body: String, ts: Int, msgtype: String = "m.text",
                        extra: [String: JSONValue] = [:]) -> JSONValue {
        var content: [String: JSONValue] = ["msgtype": .string(msgtype), "body": .string(body)]
        for (key, value) in extra { content[key] = value }
        return ["type": "m.room.message", "event_id": .string(id), "sender": .string(sender),
                "origin_server_ts": .number(Double(ts)), "content": .object(content)]
    }

    static func event(_ type: String, _ id: String, from sender: String, ts: Int, content: JSONValue) -> JSONValue {
        ["type": .string(type), "event_id": .string(id), "sender": .string(sender), "origin_server_ts": .number(Double(ts)),
         "content": content]
    }

    /// One joined room's entry; nil parts are left out, as an incremental answer leaves them.
    static func joined(summary: JSONValue? = nil, state: [JSONValue] = [], timeline: [JSONValue] = [],
                       ephemeral: [JSONValue] = [], accountData: [JSONValue] = [],
                       counts: JSONValue? = nil) -> JSONValue {
        var entry: [String: JSONValue] = [:]
        if let summary { entry["summary"] = summary }
        if !state.isEmpty { entry["state"] = ["events": .array(state)] }
        entry["timeline"] = ["events": .array(timeline), "limited": false]
        if !ephemeral.isEmpty { entry["ephemeral"] = ["events": .array(ephemeral)] }
        if !accountData.isEmpty { entry["account_data"] = ["events": .array(accountData)] }
        if let counts { entry["unread_notifications"] = counts }
        return .object(entry)
    }

    static func counts(_ unread: Int?, _ highlights: Int?) -> JSONValue {
        var counts: [String: JSONValue] = [:]
        if let unread { counts["notification_count"] = .number(Double(unread)) }
        if let highlights { counts["highlight_count"] = .number(Double(highlights)) }
        return .object(counts)
    }

    static func answer(join: [String: JSONValue] = [:], invite: [String: JSONValue] = [:], leave: [String] = [],
                       accountData: [JSONValue] = [], nextBatch: String = "s1") -> JSONValue {
        var rooms: [String: JSONValue] = [:]
        if !join.isEmpty { rooms["join"] = .object(join) }
        if !invite.isEmpty { rooms["invite"] = .object(invite.mapValues { ["invite_state": ["events": $0]] }) }
        if !leave.isEmpty { rooms["leave"] = .object(Dictionary(uniqueKeysWithValues: leave.map { ($0, JSONValue.object([:])) })) }
        var answer: [String: JSONValue] = ["next_batch": .string(nextBatch), "rooms": .object(rooms)]
        if !accountData.isEmpty { answer["account_data"] = ["events": .array(accountData)] }
        return .object(answer)
    }
}
