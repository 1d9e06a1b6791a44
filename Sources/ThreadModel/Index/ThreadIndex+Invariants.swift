extension ThreadIndex {
    /// Checks the index's internal consistency (tests call it).
    func _checkInvariants() {
        precondition(commentOffsets.count == commentLengths.count && commentOffsets.count == commentLines.count,
                     "per-comment arrays differ in length")
        var previousEnd = -1
        var previousLine: UInt32 = 0
        for index in commentOffsets.indices {
            let offset = commentOffsets[index]
            let length = Int(commentLengths[index])
            // Each line starts after the previous one's newline and ends before its own.
            precondition(offset > previousEnd, "comment \(index) overlaps the one before")
            precondition(length > 0, "comment \(index) is an empty line")
            precondition(commentLines[index] > previousLine, "comment \(index)'s line number does not increase")
            previousEnd = offset + length
            previousLine = commentLines[index]
        }
        precondition(previousEnd < follower.offset || commentOffsets.isEmpty, "a comment lies past the last complete line")
        precondition(Int(previousLine) <= follower.lineCount, "a comment's line number is past the line count")
        precondition(follower.pendingByteCount == 0 || follower.pendingByteCount > ThreadFileLimits.lineBytes,
                     "the follower starts with nothing pending but a line over the limit it passes over")
        precondition(zip(problems, problems.dropFirst()).allSatisfy { $0.line <= $1.line }, "problems out of line order")
        precondition(problems.allSatisfy { $0.line >= 1 && $0.line <= max(1, follower.lineCount) }, "a problem outside the file's lines")
        precondition(Set(users.map(\.id)).count == users.count, "a user id listed twice")
        precondition(Set(users.map { $0.handle.lowercased() }).count == users.count, "a handle owned twice")
        precondition(cache.order.count <= cache.limit && cache.entries.count == cache.order.count, "the cache outgrew its bound")
        precondition(cache.entries.keys.allSatisfy { commentOffsets.indices.contains($0) }, "a cached comment outside the index")
    }
}
