import ThreadModel

/// An indexed thread file is the feed's store: comments decoded on demand by position.
extension ThreadIndex: CommentStore {
    /// The lines decoded so far that did not read.
    public var unreadableCount: Int { unreadablePositions.count }

    /// Judged from the file's lines, read in runs.
    public func searchVerdicts(for pattern: SearchPattern, below end: Int, atMost count: Int, maxBytes: Int) -> SearchVerdicts? {
        searchVerdicts(pattern, below: end, atMost: count, maxBytes: maxBytes)
    }
}
