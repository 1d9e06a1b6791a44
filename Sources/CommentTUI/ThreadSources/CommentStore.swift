import ThreadModel

/// Comments the feed reads by position without holding them all (an indexed thread file).
public protocol CommentStore: AnyObject {
    /// How many comments the store holds.
    var commentCount: Int { get }
    /// The comment at a position (0 = oldest), or why its line did not read.
    func comment(at index: Int) -> Result<Comment, ThreadFileProblem>
}
