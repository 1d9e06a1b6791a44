import Foundation

/// One comment of a thread; its body is Markdown.
public struct Comment: Hashable, Sendable, Identifiable {
    public var id: String
    /// The author's user id.
    public var author: String
    public var created: Date
    /// Markdown, with mentions written `@handle`.
    public var body: String
    /// When the comment was last edited, if ever.
    public var edited: Date?
    /// The id of the comment this one replies to (a room's `m.in_reply_to`), if any.
    public var replyTo: String?
    /// Whether its author deleted it (a file's `delete` record, a room's redaction): its body is
    /// then `deletedBody`. A comment whose text merely says so is not deleted.
    public var isDeleted: Bool

    public init(id: String, author: String, created: Date, body: String, edited: Date? = nil, replyTo: String? = nil,
                isDeleted: Bool = false) {
        self.id = id
        self.author = author
        self.created = created
        self.body = body
        self.edited = edited
        self.replyTo = replyTo
        self.isDeleted = isDeleted
    }
}
