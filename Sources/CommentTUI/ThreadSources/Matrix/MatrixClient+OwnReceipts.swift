import Foundation
import ThreadModel

/// Our own read receipts in a room, asked for when a post opens: no endpoint gives one user's
/// receipt, so a sync is asked for the room alone with receipts only.
extension MatrixClient {
    /// The connection id of the sliding sync asked for receipts: apart from home's first window.
    static let receiptsConnection = "comment-tui-receipts"

    /// The room's `m.receipt` events holding every receipt of ours there (threaded ones too):
    /// through simplified sliding sync, else (a server without it) an initial `/sync` of the room.
    func ownReceipts(room: String, timeout: TimeInterval = 10) throws -> [JSONValue] {
        do {
            return try ownReceiptsBySlidingSync(room: room, timeout: timeout)
        } catch let error as MatrixError where [400, 404, 405].contains(error.status) {
            return try ownReceiptsByInitialSync(room: room)
        }
    }

    /// Simplified sliding sync (MSC4186) subscribed to the room: its receipts extension always
    /// sends the user's own receipts in a room it sends for the first time, in milliseconds.
    func ownReceiptsBySlidingSync(room: String, timeout: TimeInterval = 10) throws -> [JSONValue] {
        let body: JSONValue = [
            "conn_id": .string(Self.receiptsConnection),
            "room_subscriptions": [room: ["required_state": [], "timeline_limit": 1]],
            "extensions": ["receipts": ["enabled": true, "lists": [], "rooms": [.string(room)]]],
        ]
        let answer = try request("POST", MatrixFirstWindow.path, query: ["timeout": "0"], body: body, timeout: timeout,
                                 limit: MatrixAnswerLimit.large)
        return answer["extensions"]?["receipts"]?["rooms"]?[room].map { [$0] } ?? []
    }

    /// An initial `/sync` of the room with receipts only: every receipt in the room (and on
    /// Synapse a walk over every joined room: slower, hence only where sliding sync is missing).
    func ownReceiptsByInitialSync(room: String) throws -> [JSONValue] {
        let filter: JSONValue = [
            "presence": ["not_types": ["*"]],
            "account_data": ["not_types": ["*"]],
            "room": [
                "rooms": [.string(room)],
                "timeline": ["limit": 1],
                "state": ["types": []],
                "ephemeral": ["types": ["m.receipt"]],
                "account_data": ["not_types": ["*"]],
            ],
        ]
        return try sync(since: nil, filter: filter, wait: 0)["rooms"]?["join"]?[room]?["ephemeral"]?["events"]?.array ?? []
    }
}
