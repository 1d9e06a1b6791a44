import ThreadModel

/// Deleted comments as exports from before deletions were records wrote them: the comment's
/// line with the deleted body ("(deleted)") and no `delete` record, which now reads as a
/// comment saying "(deleted)". `import` takes them for deleted ones, so it leaves them out of the
/// room instead of posting the words, and says how many on stderr.
enum OlderExportDeletions {
    /// `thread` with such comments marked deleted, and how many there were.
    static func marked(in thread: CommentThread) -> (thread: CommentThread, count: Int) {
        var count = 0
        let comments = thread.comments.map { comment -> Comment in
            guard !comment.isDeleted, comment.body == Comment.deletedBody else { return comment }
            count += 1
            var deleted = comment
            deleted.isDeleted = true
            return deleted
        }
        guard count > 0 else { return (thread, 0) }
        var marked = CommentThread(id: thread.id, title: thread.title, author: thread.author, created: thread.created,
                                   body: thread.body, users: thread.users, comments: comments)
        marked.reactions = thread.reactions
        return (marked, count)
    }

    /// The note `import` writes on stderr when it marked any.
    static func note(_ count: Int) -> String {
        "comment-tui import: \(CountText.of(count, "comment")) saying only \"\(Comment.deletedBody)\" "
            + "read as deleted (an export from before deletions were recorded) and left out\n"
    }
}
