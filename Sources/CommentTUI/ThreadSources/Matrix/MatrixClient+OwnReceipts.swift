import Foundation
import ThreadModel

/// Our own read receipts in a room, asked for when a post opens: no endpoint gives one user's
/// receipt, so a sync is asked for the room alone with receipts only.
extension MatrixClient {
    /// The connection id of the sliding sync asked for receipts: apart from home's first window.
    static let receiptsConnection = "comment-tui-receipts"

    /// The most seconds a post's opening waits for our receipts: without them it opens with no divider.
    static let ownReceiptsDeadline: TimeInterval = 5

    /// The room's `m.receipt` events holding every receipt of ours there (threaded ones too):
    /// through simplified sliding sync, else (a server without it, remembered for the process so
    /// later openings do not ask again) an initial `/sync` of the room; both within `deadline`.
    func ownReceipts(room: String, deadline: TimeInterval = ownReceiptsDeadline) throws -> [JSONValue] {
        let start = Date()
        if !Self.withoutSlidingSync.contains(homeserver) {
            do {
                return try ownReceiptsBySlidingSync(room: room, timeout: deadline)
            } catch let error as MatrixError where [400, 404, 405].contains(error.status) {
                Self.withoutSlidingSync.insert(homeserver)
            }
        }
        return try ownReceiptsByInitialSync(room: room, timeout: max(1, deadline - Date().timeIntervalSince(start)))
    }

    /// `ownReceipts(room:)` asked on another thread at once; what it returns waits for the
    /// answer (nil: none, or the request failed), so a post's other opening requests go meanwhile.
    func ownReceiptsAsked(room: String) -> () -> [JSONValue]? {
        let answer = MatrixOwnReceiptsAnswer()
        DispatchQueue.global().async { answer.set(try? self.ownReceipts(room: room)) }
        return { answer.wait() }
    }

    /// Homeservers that answered the sliding-sync request as a path they do not know.
    static let withoutSlidingSync = MatrixHomeserverSet()

    /// Simplified sliding sync (MSC4186) subscribed to the room: Synapse's receipts extension
    /// always sends the user's own receipts in a room it sends for the first time (its behaviour,
    /// not the MSC's promise), in milliseconds.
    func ownReceiptsBySlidingSync(room: String, timeout: TimeInterval = ownReceiptsDeadline) throws -> [JSONValue] {
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
    func ownReceiptsByInitialSync(room: String, timeout: TimeInterval = ownReceiptsDeadline) throws -> [JSONValue] {
        let filter = MatrixAccountFilter.oneRoom(room, stateTypes: [], ephemeralTypes: ["m.receipt"])
        return try sync(since: nil, filter: filter, wait: 0, margin: timeout)["rooms"]?["join"]?[room]?["ephemeral"]?["events"]?.array ?? []
    }
}
