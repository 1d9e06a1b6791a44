import Foundation
import ThreadModel

/// The endpoints of Matrix threads (spec v1.4 on): a room's posts, a root's replies, threaded read receipts.
extension MatrixClient {
    /// One page of a room's thread roots, newest activity first (`GET /v1/rooms/{r}/threads`),
    /// each with its bundled `m.thread` aggregation; `next` is where the next page starts (nil: none).
    func threads(room: String, limit: Int, from token: String? = nil) throws -> (roots: [JSONValue], next: String?) {
        var query = ["limit": String(limit)]
        if let token { query["from"] = token }
        let answer = try request("GET", ["v1", "rooms", room, "threads"], query: query, limit: MatrixAnswerLimit.large)
        return (answer["chunk"]?.array ?? [], answer["next_batch"]?.string)
    }

    /// One page of a thread's replies, newest first (`GET /v1/rooms/{room}/relations/{root}/m.thread`),
    /// before `from` (a `next_batch` of the page after it); nil starts at the newest.
    public func threadReplies(room: String, root: String, from token: String?, limit: Int) throws -> JSONValue {
        var query = ["dir": "b", "limit": String(limit)]
        if let token { query["from"] = token }
        return try request("GET", ["v1", "rooms", room, "relations", root, "m.thread"], query: query, timeout: 60,
                           limit: MatrixAnswerLimit.large)
    }

    /// Moves the read receipt in one thread (`thread_id`: the root, or `main` for the room's own
    /// timeline), private when `privately`. The fully-read marker is the room's, not moved.
    public func setThreadReceipt(room: String, eventID: String, thread: String, privately: Bool, timeout: TimeInterval = 5) throws {
        try request("POST", ["rooms", room, "receipt", privately ? "m.read.private" : "m.read", eventID],
                    body: ["thread_id": .string(thread)], timeout: timeout)
    }
}
