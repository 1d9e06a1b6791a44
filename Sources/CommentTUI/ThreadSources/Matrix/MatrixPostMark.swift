import Foundation
import ThreadModel

/// The mark a post started here puts on its root event: `"org.comment_tui.post": {"title": …}`
/// in the root's content, beside its `body`.
///
/// Any message can become a thread's root, and `/threads` lists a root only once it has a reply,
/// so nothing tells a post with no replies yet from an ordinary message. The mark does: home
/// lists a marked root under its room from the timeline until `/threads` lists it, and a
/// locator naming it opens the post, not the room. Other clients ignore a field they do not
/// know (the spec's namespacing), so they show the root as the message its body is.
enum MatrixPostMark {
    /// The content field: namespaced by the project's reversed domain, as the spec asks of
    /// fields outside it.
    static let field = "org.comment_tui.post"

    /// `content` (a message's) marked as a post's root titled `title`.
    static func marked(_ content: JSONValue, title: String) -> JSONValue {
        guard case .object(var object) = content else { return content }
        object[field] = ["title": .string(title)]
        return .object(object)
    }

    /// Whether an event is a marked root: a message in the room's main timeline (no relation
    /// but a plain reply's) carrying the mark as an object. A thread reply, an edit or a
    /// redacted event (its content gone) is none, whatever its content says.
    static func isMarkedRoot(_ event: JSONValue) -> Bool {
        guard event["type"]?.string == "m.room.message", event["state_key"] == nil,
              let content = event["content"], content[field]?.object != nil,
              event["unsigned"]?["redacted_because"] == nil else { return false }
        return content["m.relates_to"]?["rel_type"] == nil
    }

    /// The title the mark gives, if it is a string with something in it (a server's text: the
    /// caller cuts and escapes it).
    static func title(of event: JSONValue) -> String? {
        guard let title = event["content"]?[field]?["title"]?.string,
              !title.allSatisfy({ $0.isWhitespace }) else { return nil }
        return title
    }
}
