import ThreadModel

/// Comments held in memory, read by position: what a room's first page opens with.
public final class ArrayCommentStore: CommentStore {
    /// The comments, oldest first.
    public let comments: [Comment]

    public init(_ comments: [Comment]) { self.comments = comments }

    public var commentCount: Int { comments.count }

    public func comment(at index: Int) -> Result<Comment, ThreadFileProblem> { .success(comments[index]) }
}
