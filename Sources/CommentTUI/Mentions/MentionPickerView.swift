import ScrollEngine
import ThreadModel

/// Draws the mention list over the feed: only its content rows; the inset rows above them are
/// transparent and leave the feed showing.
struct MentionPickerView {
    var picker: MentionPicker

    /// The screen rows the list covers (its content rows; the inset rows leave the feed showing).
    var coveredRows: [Int] {
        (0..<picker.frame.height).filter { picker.model.item(atViewportRow: $0) != nil }.map { picker.frame.row + $0 }
    }

    func draw(into buffer: inout CellBuffer) {
        let frame = picker.frame
        // Names start in one column, after the longest handle listed (up to a third of the
        // width), so the column stays put while the list scrolls.
        let nameColumn = frame.column + 3 + 1 + min(picker.longestHandle, frame.width / 3) + 2
        let end = frame.column + frame.width
        for r in 0..<frame.height {
            let row = frame.row + r
            guard let item = picker.model.item(atViewportRow: r) else { continue }
            buffer.fill(row: row, from: frame.column, to: end, style: Theme.pickerRow)
            if item < 0 {
                drawTitle(into: &buffer, row: row, end: end)
            } else {
                drawUser(picker.results.matches[item], highlighted: item == picker.highlighted, into: &buffer, row: row,
                         nameColumn: nameColumn, end: end)
            }
        }
    }

    /// `─ @query · 3 users · ↑↓ Tab/Enter insert · Esc ───`; where that does not fit the keys go,
    /// then the query (the composer shows it), whole. With no one to insert only Esc is offered;
    /// a list opened before its thread's index was built says `ranking users…`.
    private func drawTitle(into buffer: inout CellBuffer, row: Int, end: Int) {
        let frame = picker.frame
        buffer.fill(row: row, from: frame.column, to: end, style: Theme.pickerTitle)
        let count = picker.results.total
        let shown = picker.results.matches.count
        let what = picker.awaitsIndex ? "ranking users…" : count == 0 ? "no one matches"
            : count == shown ? CountText.of(count, "user") : "\(shown) of \(count) users"
        let keys = count == 0 ? "Esc closes" : "↑↓ Tab/Enter insert · Esc"
        let query = "@" + picker.query
        let title = [[query, what, keys], [query, what], [what]]
            .first { TextFit.fits("─ " + $0.joined(separator: " · ") + " ", in: end - frame.column) } ?? [what]
        var x = buffer.write("─ ", column: frame.column, row: row, style: Theme.pickerTitle, limit: end)
        for (n, part) in title.enumerated() {
            if n > 0 { x = buffer.write(" · ", column: x, row: row, style: Theme.pickerTitle, limit: end) }
            guard part == query else {
                x = buffer.write(part, column: x, row: row, style: Theme.pickerTitle, cuttingAt: end)
                continue
            }
            x = buffer.write("@", column: x, row: row, style: Theme.pickerTitle, limit: end)
            x = buffer.write(picker.query, column: x, row: row, style: Theme.pickerTitle.adding(.bold), cuttingAt: end)
        }
        x = buffer.write(" ", column: x, row: row, style: Theme.pickerTitle, limit: end)
        while x < end { x = buffer.write("─", column: x, row: row, style: Theme.pickerTitle, limit: end) }
    }

    private func drawUser(_ match: MentionMatch, highlighted: Bool, into buffer: inout CellBuffer, row: Int, nameColumn: Int, end: Int) {
        let base = highlighted ? Theme.pickerHighlight : Theme.pickerRow
        if highlighted { buffer.fill(row: row, from: picker.frame.column, to: end, style: base) }
        var x = buffer.write(highlighted ? " ▸ " : "   ", column: picker.frame.column, row: row, style: base, limit: end)
        x = buffer.write("@", column: x, row: row, style: base.adding(.bold), limit: end)
        // A handle longer than the column is cut, so every name starts in the same column.
        x = buffer.write(match.user.handle, highlighting: match.handleHighlights, column: x, row: row,
                         style: base.adding(.bold), end: min(end, nameColumn - 2))
        buffer.write(match.user.name, highlighting: match.nameHighlights, column: max(x + 2, nameColumn), row: row,
                     style: base, end: end)
    }
}
