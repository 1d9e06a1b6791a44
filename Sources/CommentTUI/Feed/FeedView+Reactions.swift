/// Drawing a comment's reactions, the row under its text.
extension FeedView {
    /// Draws `👍 3  🎉 1 +2`: the reader's own reactions in reverse video, counts dim; returns
    /// the column after it.
    @discardableResult
    func drawReactions(_ row: ReactionRow, into buffer: inout CellBuffer, row screenRow: Int, column: Int, end: Int) -> Int {
        var x = column
        for (n, piece) in row.pieces.enumerated() {
            if n > 0 { x += ReactionRow.spacing }
            let keyStyle = piece.isMine ? Theme.ownReaction : Theme.body
            for cluster in piece.key { x = buffer.put(cluster, column: x, row: screenRow, style: keyStyle, limit: end) }
            x = buffer.write(" " + piece.count, column: x, row: screenRow, style: piece.isMine ? Theme.ownReaction : Theme.reactionCount, limit: end)
        }
        if row.more > 0 {
            x = buffer.write(String(repeating: " ", count: ReactionRow.spacing) + "+\(row.more)", column: x, row: screenRow,
                         style: Theme.reactionCount, limit: end)
        }
        return x
    }
}
