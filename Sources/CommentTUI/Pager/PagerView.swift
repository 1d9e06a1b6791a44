/// Draws a page over the whole screen: the title row, the text's rows on screen, and a status
/// line in the status bar's place that says which lines show and how to leave.
struct PagerView {
    var pager: Pager
    /// The reader's user id: mentions of them stand out, as in the feed.
    var ownUserID: String?
    /// The status bar's message, if any (a link opened, F2's layer under the pointer).
    var message: String?
    /// Whether the message reports an error.
    var isError = false

    func draw(into buffer: inout CellBuffer) {
        let columns = buffer.columns
        for row in 0..<buffer.rows { buffer.fill(row: row, from: 0, to: columns) }
        var x = buffer.write(pager.title, column: 1, row: 0, style: Theme.title, cuttingAt: columns - 1)
        if let details = pager.details {
            buffer.write(" · " + details, column: x, row: 0, style: Theme.dim, cuttingAt: columns - 1)
        }
        let rect = pager.textRect
        let renderer = CommentRenderer(revealedSpoilers: pager.revealedSpoilers, ownUserID: ownUserID)
        for (n, line) in pager.shownLines.enumerated() {
            renderer.draw(pager.text.lines[line], number: line, into: &buffer, column: rect.column, row: rect.row + n, limit: rect.maxColumn)
        }
        let status = buffer.rows - 1
        guard status > 0 else { return }
        buffer.fill(row: status, from: 0, to: columns, style: Theme.statusBar)
        let closes = pager.isKeyPage ? "Esc or F1 closes" : "Esc closes"
        x = buffer.write(" \(pager.positionText) · \(closes)", column: 0, row: status, style: Theme.statusBar, cuttingAt: columns)
        if let message {
            x = buffer.write(" · ", column: x, row: status, style: Theme.statusBar)
            buffer.write(message, column: x, row: status, style: isError ? Theme.statusError : Theme.statusBar, cuttingAt: columns)
        }
    }
}
