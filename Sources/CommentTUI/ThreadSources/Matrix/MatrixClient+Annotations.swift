import Foundation

/// Finding a reaction in a room: the server refuses a second identical one
/// (`M_DUPLICATE_ANNOTATION`), and then the one it has is ours to know (to redact it later).
extension MatrixClient {
    /// Pages of annotations read at most when looking for one (a hostile comment may have many).
    static let annotationPageLimit = 20

    /// The event id of `sender`'s reaction `key` to `target`, if the room has it
    /// (`GET /v1/rooms/{r}/relations/{target}/m.annotation/m.reaction`, newest first).
    func annotation(room: String, target: String, key: String, sender: String) throws -> String? {
        var from: String?
        for _ in 0..<Self.annotationPageLimit {
            var query = ["dir": "b", "limit": "100"]
            if let from { query["from"] = from }
            let page = try request("GET", ["v1", "rooms", room, "relations", target, "m.annotation", "m.reaction"],
                                   query: query, limit: MatrixAnswerLimit.large)
            for event in page["chunk"]?.array ?? [] where event["sender"]?.string == sender
                && event["content"]?["m.relates_to"]?["key"]?.string == key {
                if let id = event["event_id"]?.string { return id }
            }
            guard let next = page["next_batch"]?.string else { return nil }
            from = next
        }
        return nil
    }
}
