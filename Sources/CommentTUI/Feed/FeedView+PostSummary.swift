import Foundation

/// Drawing a post's summary, the line under its root's text (and its reactions).
extension FeedView {
    /// Draws `↳ 3 replies · Bob 5m ago · ● 2 new`: the count and time dim, the name as authors'
    /// are, the unread mark as the unread divider; returns the column after it.
    @discardableResult
    func drawPostSummary(_ line: PostSummaryLine, into buffer: inout CellBuffer, row: Int, column: Int, end: Int) -> Int {
        var x = column
        for (text, kind) in line.pieces(now: now) {
            let style: CellStyle = switch kind {
            case .count, .time: Theme.reactionCount
            case .name: line.summary.latestAuthor == ownUserID ? Theme.ownName : Theme.authorName
            case .unread: Theme.unreadDivider
            case .mentions: Theme.mention
            }
            x = buffer.write(text, column: x, row: row, style: style, limit: end)
        }
        return x
    }
}
