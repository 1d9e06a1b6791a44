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
    /// Ctrl-S's verdicts from the stored bytes for the comments below `end`, newest first (at
    /// most `count`, lines of at most `maxBytes` together), where the store has its comments
    /// as bytes; nil where it does not, and each comment is read whole instead. Comments with
    /// one of `ids` are undecided (their text is shown from elsewhere: an edit).
    func searchVerdicts(for pattern: SearchPattern, below end: Int, atMost count: Int, maxBytes: Int,
                        leavingUndecided ids: Set<String>) -> SearchVerdicts?
    /// The id of the comment at a position, nil where its line did not read; a store of bytes
    /// reads it without decoding the comment.
    func commentID(at index: Int) -> String?
}

extension CommentStore {
    /// None: every position holds a comment.
    public var unreadableCount: Int { 0 }

    /// None: every position holds a comment.
    public func unreadableCount(through position: Int) -> Int { 0 }
    /// From the comment, decoded.
    public func commentID(at index: Int) -> String? { try? comment(at: index).get().id }
    /// None: the comments are read whole.
    public func searchVerdicts(for pattern: SearchPattern, below end: Int, atMost count: Int, maxBytes: Int,
                               leavingUndecided ids: Set<String>) -> SearchVerdicts? { nil }
}
