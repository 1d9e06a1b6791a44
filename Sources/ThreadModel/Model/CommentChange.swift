import Foundation

/// A change its author made to a comment after posting it: a new body, or its deletion.
///
/// A thread file keeps the comment's line as written and appends the change as a record of its
/// own (`{"type":"edit",…}`, `{"type":"delete",…}`), so the file stays append-only; readers
/// show the comment as its changes leave it.
public struct CommentChange: Hashable, Sendable {
    /// What the change does.
    public enum Kind: Hashable, Sendable {
        /// The comment's body becomes this Markdown.
        case edit(body: String)
        /// The comment is deleted: its body is no longer shown.
        case delete
    }

    /// The id of the comment changed.
    public var comment: String
    /// Who made the change: only the comment's author's changes count.
    public var author: String
    /// When the change was made.
    public var created: Date
    public var kind: Kind

    public init(comment: String, author: String, created: Date, kind: Kind) {
        self.comment = comment
        self.author = author
        self.created = created
        self.kind = kind
    }

    /// What a record's type calls the change.
    public var recordType: String { if case .edit = kind { "edit" } else { "delete" } }

    /// A comment read on line `commentLine` as the changes read on later lines leave it, and
    /// the problems of those that do not count (on an earlier line, by another author, after
    /// its deletion): the one rule for the reader, the index and `render`.
    public static func apply(_ changes: [(change: CommentChange, line: Int)], to comment: Comment,
                             readOnLine commentLine: Int) -> (comment: Comment, problems: [ThreadFileProblem]) {
        var changed = comment
        var problems: [ThreadFileProblem] = []
        for (change, line) in changes {
            let refusal = line < commentLine ? "before the comment's line, ignored" : change.refusal(for: changed)
            if let refusal {
                problems.append(ThreadFileProblem(line: line, message: "\(change.recordType) of comment \"\(comment.id)\" \(refusal)"))
            } else {
                changed = changed.applying(change)
            }
        }
        return (changed, problems)
    }

    /// The problem of a change whose comment no line of the file holds.
    public static func unknownCommentProblem(_ change: CommentChange, line: Int) -> ThreadFileProblem {
        ThreadFileProblem(line: line, message: "\(change.recordType) of comment \"\(change.comment)\", which the file does not hold, ignored")
    }

    /// Why this change does not apply to `comment` (another author's, or after a deletion), or nil.
    public func refusal(for comment: Comment) -> String? {
        if author != comment.author { return "by \(author), not the comment's author \(comment.author), ignored" }
        if comment.isDeleted { return "of a comment deleted before, ignored" }
        return nil
    }
}

extension Comment {
    /// What a deleted comment's body shows (a room's redacted events read the same).
    public static let deletedBody = "(deleted)"

    /// The comment deleted: its body no longer shown, the flag set.
    public var deleted: Comment {
        var deleted = self
        deleted.body = Self.deletedBody
        deleted.edited = nil
        deleted.isDeleted = true
        return deleted
    }

    /// The comment as a change leaves it; unchanged when the change does not apply (`refusal`).
    public func applying(_ change: CommentChange) -> Comment {
        guard change.refusal(for: self) == nil else { return self }
        var changed = self
        switch change.kind {
        case .edit(let body):
            changed.body = body
            changed.edited = change.created
        case .delete:
            changed = changed.deleted
        }
        return changed
    }

    /// The comment as its changes leave it, in order.
    public func applying(_ changes: [CommentChange]) -> Comment {
        changes.reduce(self) { $0.applying($1) }
    }
}
