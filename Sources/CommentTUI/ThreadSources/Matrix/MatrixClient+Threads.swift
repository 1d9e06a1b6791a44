import Foundation

/// A room's posts (Matrix threads) as the server lists them.
extension MatrixClient {
    /// One page of a room's thread roots, newest activity first (`GET /v1/rooms/{r}/threads`),
    /// each with its bundled `m.thread` aggregation; `next` is where the next page starts (nil: none).
    func threads(room: String, limit: Int, from token: String? = nil) throws -> (roots: [JSONValue], next: String?) {
        var query = ["limit": String(limit)]
        if let token { query["from"] = token }
        let answer = try request("GET", ["v1", "rooms", room, "threads"], query: query, limit: MatrixAnswerLimit.large)
        return (answer["chunk"]?.array ?? [], answer["next_batch"]?.string)
    }
}
