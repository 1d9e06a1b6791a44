/// Draws the Ctrl-K switcher over the screen: `› query · 3 threads · Enter opens · Esc` on its
/// first row, then a row a match: the name (its match underlined, bold while unread), the lock
/// of an encrypted room, `invite`, the unread count and the mention badge.
struct ThreadSwitcherView {
    var switcher: ThreadSwitcher

    func draw(into buffer: inout CellBuffer) {
        let frame = switcher.frame
        guard frame.height > 0, frame.width > 0 else { return }
        drawQuery(into: &buffer)
        let shown = min(switcher.matches.count, switcher.shownRows)
        for n in 0..<switcher.shownRows {
            let row = frame.row + 1 + n
            let style = n == switcher.highlighted && n < shown ? Theme.pickerHighlight : Theme.pickerRow
            buffer.fill(row: row, from: frame.column, to: frame.maxColumn, style: style)
            if n < shown { drawMatch(n, into: &buffer, row: row, style: style) }
        }
        if shown == 0, switcher.shownRows > 0 {
            buffer.write("   no thread matches", column: frame.column, row: frame.row + 1, style: Theme.pickerRow, cuttingAt: frame.maxColumn)
        }
    }

    /// The query row; where the keys do not fit they go, then the count.
    private func drawQuery(into buffer: inout CellBuffer) {
        let frame = switcher.frame
        let end = frame.maxColumn
        buffer.fill(row: frame.row, from: frame.column, to: end, style: Theme.pickerTitle)
        var x = buffer.write(" › ", column: frame.column, row: frame.row, style: Theme.pickerTitle, limit: end)
        // With nothing to open only the key that does something is offered (as the @ list does).
        let count = switcher.total == 0 ? "none" : CountText.of(switcher.total, "thread")
        let keys = switcher.total == 0 ? "Esc closes" : "Enter opens · Esc"
        let lead = switcher.query.isEmpty ? "" : " · "
        let tail = [lead + "\(count) · \(keys)", lead + count, ""]
            .first { TextFit.fits(switcher.query + $0, in: end - x) } ?? ""
        x = buffer.write(switcher.query, column: x, row: frame.row, style: Theme.pickerTitle.adding(.bold), cuttingAt: end - DisplayWidth.width(of: tail))
        buffer.write(tail, column: x, row: frame.row, style: Theme.pickerTitle, limit: end)
    }

    private func drawMatch(_ n: Int, into buffer: inout CellBuffer, row: Int, style: CellStyle) {
        let frame = switcher.frame
        let end = frame.maxColumn
        let summary = switcher.summary(ofMatch: n)
        var right = ""
        if summary.invite != nil { right += " invite" }
        if summary.unread > 0 { right += " \(summary.unread)" }
        if summary.highlights > 0 { right += " @\(summary.highlights)" }
        if !right.isEmpty { right += " " }
        let lock = summary.isEncrypted ? " " + HomeView.encryptedMarker : ""
        var x = buffer.write(n == switcher.highlighted ? " ▸ " : "   ", column: frame.column, row: row, style: style, limit: end)
        let nameStyle = summary.unread > 0 || summary.invite != nil ? style.adding(.bold) : style
        let nameEnd = max(x, end - DisplayWidth.width(of: right) - DisplayWidth.width(of: lock))
        x = buffer.write(summary.name, highlighting: switcher.matches[n].highlights, column: x, row: row, style: nameStyle, end: nameEnd)
        x = buffer.write(lock, column: x, row: row, style: style, limit: end)
        buffer.write(right, column: max(x, end - DisplayWidth.width(of: right)), row: row, style: style.adding(.bold), limit: end)
    }
}
