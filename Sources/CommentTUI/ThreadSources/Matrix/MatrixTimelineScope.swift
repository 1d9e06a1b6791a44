import Foundation
import ThreadModel

/// Which of a room's messages are the thread's comments: the room's own feed, or one post (a
/// Matrix thread, `m.thread` since spec v1.4) whose root is the post and whose replies are the
/// comments.
///
/// A room's feed leaves thread replies out (they are shown in their post, and summed up under
/// its root); a post shows only its own replies. A reply from an older client that sets only
/// `m.in_reply_to` is the room's, as that client meant it. Edits, reactions and redactions are
/// not filtered: they change or annotate a comment only once it is known.
enum MatrixTimelineScope: Equatable, Sendable {
    case room
    case post(root: String)

    /// The post's root; nil for the room's feed.
    var root: String? {
        if case .post(let root) = self { return root }
        return nil
    }

    /// The root of the thread a message or encrypted event replies in (`m.relates_to` stays in
    /// the clear when encrypted); nil when it is no thread reply, or its root is not of an event
    /// id's shape (a hostile server's string would become a post's root, its key and cache file).
    static func threadRoot(of event: JSONValue) -> String? {
        let relation = event["content"]?["m.relates_to"]
        guard relation?["rel_type"]?.string == "m.thread", let root = relation?["event_id"]?.string,
              MatrixRoomAddress.isEventID(root) else { return nil }
        return root
    }

    /// Whether a message or encrypted event with this thread root (nil: none) is a comment here.
    func admits(threadRoot: String?) -> Bool {
        switch self {
        case .room: return threadRoot == nil
        case .post(let root): return threadRoot == root
        }
    }
}
