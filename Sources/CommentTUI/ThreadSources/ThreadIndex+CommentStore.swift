import ThreadModel

/// An indexed thread file is the feed's store: comments decoded on demand by position.
extension ThreadIndex: CommentStore {
    /// The lines decoded so far that did not read.
    public var unreadableCount: Int { unreadablePositions.count }

    /// A look at each: lines that do not read are few (and a frame asks once).
    public func unreadableCount(through position: Int) -> Int {
        unreadablePositions.isEmpty ? 0 : unreadablePositions.reduce(0) { $0 + ($1 <= position ? 1 : 0) }
    }

    /// Judged from the file's lines, read in runs.
    public func searchVerdicts(for pattern: SearchPattern, below end: Int, atMost count: Int, maxBytes: Int,
                               leavingUndecided ids: Set<String>) -> SearchVerdicts? {
        verdictsFromLines(pattern, below: end, atMost: count, maxBytes: maxBytes, leavingUndecided: ids)
    }
}
