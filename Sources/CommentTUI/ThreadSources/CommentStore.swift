import ThreadModel

/// Comments the feed reads by position without holding them all (an indexed thread file).
public protocol CommentStore: AnyObject {
    /// How many comments the store holds.
    var commentCount: Int { get }
    /// The comment at a position (0 = oldest), or why its line did not read.
    func comment(at index: Int) -> Result<Comment, ThreadFileProblem>
    /// Positions known to hold why a line did not read rather than a comment; a store that
    /// decodes on demand knows only those it has decoded.
    var unreadableCount: Int { get }
    /// Of those, the ones at `position` or before it.
    func unreadableCount(through position: Int) -> Int
}

extension CommentStore {
    /// None: every position holds a comment.
    public var unreadableCount: Int { 0 }

    /// None: every position holds a comment.
    public func unreadableCount(through position: Int) -> Int { 0 }
}
