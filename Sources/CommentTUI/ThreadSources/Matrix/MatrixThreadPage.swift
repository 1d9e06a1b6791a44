import Foundation
import ThreadModel

/// One page of a post's replies as `/relations/{root}/m.thread` gives it, read for the timeline:
/// the replies newest first, each edit the server bundled with a reply (`unsigned.m.relations.
/// m.replace`: since spec v1.7 servers no longer put it in the content) placed so the timeline
/// applies it, and where the page before starts.
///
/// A page is the server's text: what is no event, or no reply in this thread, is left out.
struct MatrixThreadPage: Equatable {
    /// The replies, newest first, each preceded by its bundled edit (the order `/messages?dir=b`
    /// gives a room's events, where an edit is newer than what it edits).
    var newestFirst: [JSONValue]
    /// Where the page before starts (`next_batch`); nil at the thread's start.
    var next: String?

    /// Where the page before starts, as the source keeps it: marked as a `/relations` token, so
    /// it is never asked of `/messages`. A post's copy starting again after a gap or at its limit
    /// keeps a sync's token marked the same way (`/relations` takes it as its `from`); only a
    /// copy written before that holds a room's token, paged back no further than the root.
    var olderToken: String? { next.map { Self.tokenMark + $0 } }

    /// `token` (a sync's or a gap's) where the offline copy starts again: marked in a post, so
    /// its older pages read the post's replies, not the room's events.
    static func restartToken(_ token: String, inPost: Bool) -> String {
        inPost && relationsToken(token) == nil ? tokenMark + token : token
    }

    /// Where a room's page (`/messages`, newest first) leaves off for a post rooted at `root`:
    /// nowhere once the page reaches the root (nothing older is in the post); `end` otherwise.
    static func roomPageEnd(_ end: String?, events: [JSONValue], root: String?) -> String? {
        guard let root else { return end }
        return events.contains { $0["event_id"]?.string == root } ? nil : end
    }

    static let tokenMark = "relations:"

    /// The `/relations` token an older token holds; nil for a room's (`/messages`) token.
    static func relationsToken(_ token: String) -> String? {
        token.hasPrefix(tokenMark) ? String(token.dropFirst(tokenMark.count)) : nil
    }

    /// The same events oldest first, each edit after its reply (as a sync brings them).
    var oldestFirst: [JSONValue] { newestFirst.reversed() }

    init(answer: JSONValue, root: String) {
        var events: [JSONValue] = []
        for event in answer["chunk"]?.array ?? [] {
            guard let id = event["event_id"]?.string, MatrixTimelineScope.threadRoot(of: event) == root,
                  event["sender"]?.string != nil else { continue }
            if let edit = Self.bundledEdit(of: event, id: id) { events.append(edit) }
            events.append(event)
        }
        newestFirst = events
        next = answer["next_batch"]?.string.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The edit bundled with `event`, when it is a whole edit event of it (servers before v1.7
    /// bundled only its id, time and sender: nothing to apply).
    static func bundledEdit(of event: JSONValue, id: String) -> JSONValue? {
        guard let edit = event["unsigned"]?["m.relations"]?["m.replace"], edit["event_id"]?.string != nil,
              edit["content"]?["m.relates_to"]?["rel_type"]?.string == "m.replace",
              edit["content"]?["m.relates_to"]?["event_id"]?.string == id else { return nil }
        return edit
    }
}
