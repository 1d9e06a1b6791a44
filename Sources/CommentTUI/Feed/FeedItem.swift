import ThreadModel

/// What one position of the feed holds: a comment, or a row in place of one.
///
/// The feed lays each kind out and draws it in its own way; annotations (reactions, a post's
/// summary) belong to comments and are looked up by id, apart from the item, so they change
/// without the comment's text being laid out again.
enum FeedItem: Equatable {
    case comment(Comment)
    /// A row in place of what cannot be shown yet (an event that cannot be decrypted yet, where
    /// encryption was switched on): a comment of the thread's, drawn dim and italic.
    case encrypted(Comment)
    /// Comments a server skipped, loaded when scrolled to; `isLoading` once they were asked for.
    case gap(id: String, isLoading: Bool)
    /// A line of a thread file that did not read, shown in its place with why.
    case problem(ThreadFileProblem)

    /// A comment as a store holds it, or why its line did not read.
    init(_ stored: Result<Comment, ThreadFileProblem>) {
        switch stored {
        case .success(let comment): self = .comment(comment)
        case .failure(let problem): self = .problem(problem)
        }
    }

    /// The comment, or the one an encrypted row stands for.
    var comment: Comment? {
        switch self {
        case .comment(let comment), .encrypted(let comment): comment
        case .gap, .problem: nil
        }
    }

    /// What a row that is no comment says.
    var notice: String? {
        switch self {
        case .comment, .encrypted: nil
        case .gap(_, let isLoading): Self.gapText(isLoading: isLoading)
        // Line 0: not a line of a file (an older page that did not read back from its spill file).
        case .problem(let problem): problem.line > 0 ? "line \(problem.line): \(problem.message)" : problem.message
        }
    }

    /// What a gap's row says.
    static func gapText(isLoading: Bool) -> String {
        isLoading ? "⋯ loading the messages missed here…" : "⋯ messages missed here while away: they load when scrolled to"
    }

    /// Whether it is a gap's row.
    var isGap: Bool { if case .gap = self { true } else { false } }
}
