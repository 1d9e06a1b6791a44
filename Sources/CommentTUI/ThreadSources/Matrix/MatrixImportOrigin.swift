import Foundation
import ThreadModel

/// Where an imported comment came from, kept in its content under `org.comment_tui.origin`:
/// the thread file's thread and comment ids, the original author and time.
///
/// The original author becomes a user of the room's thread with an id of its own
/// (`@handle:imported`), so the handle rules of members apply (`marco.imported` beside a member
/// `marco`). Anyone could write such a key: the names it claims are shown as the author, as the
/// import asked, and the event's real sender is still the importing member.
struct MatrixImportOrigin: Equatable, Sendable {
    /// The content key.
    static let key = "org.comment_tui.origin"
    /// The server part of imported authors' ids.
    static let server = "imported"

    var thread: String
    var comment: String
    var author: User
    var created: Date
    /// When the comment was last edited in the file, if ever: the room shows it edited then.
    var edited: Date?
    /// Posted by an application service as a user of its own with the original time: the event's
    /// sender and time are the author's, and nothing here overrides them.
    var postedAsAuthor = false

    init(thread: String, comment: Comment, author: User, postedAsAuthor: Bool = false) {
        self.postedAsAuthor = postedAsAuthor
        self.thread = thread
        self.comment = comment.id
        self.author = User(id: "@\(MatrixMembers.handleBase(author.handle)):\(Self.server)", handle: author.handle, name: author.name)
        created = comment.created
        edited = comment.edited
    }

    /// The origin in a message content, if it has a well-formed one.
    init?(content: JSONValue) {
        guard let origin = content[Self.key], let thread = origin["thread"]?.string, let comment = origin["id"]?.string,
              let handle = origin["author"]?.string, case .number? = origin["created_ms"] else { return nil }
        let base = MatrixMembers.handleBase(handle)
        self.thread = thread
        self.comment = comment
        author = User(id: "@\(base):\(Self.server)", handle: base, name: origin["author_name"]?.string ?? base)
        created = MatrixServerNumber.time(milliseconds: origin["created_ms"])
        postedAsAuthor = origin["posted_as_author"]?.bool ?? false
        if case .number? = origin["edited_ms"] { edited = MatrixServerNumber.time(milliseconds: origin["edited_ms"]) }
    }

    /// The value stored under `key`.
    var json: JSONValue {
        var json: [String: JSONValue] = [
            "thread": .string(thread), "id": .string(comment), "author": .string(author.handle), "author_name": .string(author.name),
            "created_ms": .number((created.timeIntervalSince1970 * 1000).rounded()), "posted_as_author": .bool(postedAsAuthor),
        ]
        if let edited { json["edited_ms"] = .number((edited.timeIntervalSince1970 * 1000).rounded()) }
        return .object(json)
    }
}
