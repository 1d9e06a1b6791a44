import ThreadModel

/// An indexed thread file is the feed's store: comments decoded on demand by position.
extension ThreadIndex: CommentStore {
    /// The lines decoded so far that did not read.
    public var unreadableCount: Int { unreadablePositions.count }
}
