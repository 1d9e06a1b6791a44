import Foundation

/// One line of a thread file.
public enum ThreadRecord: Hashable, Sendable {
    /// The post: `{"type":"thread","id","title","author","created","body"}`.
    case thread(ThreadHeader)
    /// A participant: `{"type":"user","id","handle","name"}`.
    case user(User)
    /// A comment: `{"type":"comment","id","author","created","body","edited"?}`.
    case comment(Comment)
    /// A change of a comment by its author: `{"type":"edit","comment","author","created","body"}`
    /// or `{"type":"delete","comment","author","created"}`, appended after the comment.
    case change(CommentChange)
    /// A reaction added or taken back: `{"type":"react","comment","author","created","key"}`
    /// or `{"type":"unreact",…}` with the same fields, appended after the comment.
    case reaction(ReactionChange)

    /// The records that make up a thread: its header, its users, its comments (a deleted one
    /// as its line with the deleted body, then its `delete` record, so it reads back deleted),
    /// then the reactions standing to them (comment by comment, as `react` records).
    public static func records(of thread: CommentThread) -> [ThreadRecord] {
        [.thread(ThreadHeader(thread))] + thread.users.map(ThreadRecord.user) + thread.comments.flatMap(records(of:))
            + thread.reactions.standing(inOrderOf: thread.comments.map(\.id)).map(ThreadRecord.reaction)
    }

    /// A comment's records: its line, and its deletion if it was deleted.
    static func records(of comment: Comment) -> [ThreadRecord] {
        guard comment.isDeleted else { return [.comment(comment)] }
        var line = comment
        line.isDeleted = false
        return [.comment(line), .change(CommentChange(comment: comment.id, author: comment.author, created: comment.created, kind: .delete))]
    }
}

/// The post of a thread without its users and comments: what a `thread` record holds.
public struct ThreadHeader: Hashable, Sendable {
    public var id: String
    public var title: String
    /// The author's user id.
    public var author: String
    public var created: Date
    /// Markdown.
    public var body: String

    public init(id: String, title: String, author: String, created: Date, body: String) {
        self.id = id
        self.title = title
        self.author = author
        self.created = created
        self.body = body
    }

    /// The header of a thread.
    public init(_ thread: CommentThread) {
        self.init(id: thread.id, title: thread.title, author: thread.author, created: thread.created, body: thread.body)
    }
}
