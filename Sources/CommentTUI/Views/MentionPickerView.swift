import ScrollEngine
import ThreadModel

/// Draws the mention list over the feed: only its content rows; the inset rows above them are
/// transparent and leave the feed showing.
struct MentionPickerView {
    var picker: MentionPicker

    func draw(into buffer: inout CellBuffer) {
        let frame = picker.frame
        let end = frame.column + frame.width
        for r in 0..<frame.height {
            let row = frame.row + r
            guard let item = picker.model.item(atViewportRow: r) else { continue }
            buffer.fill(row: row, from: frame.column, to: end, style: Theme.pickerRow)
            if item < 0 {
                drawTitle(into: &buffer, row: row, end: end)
            } else {
                drawUser(picker.results.matches[item], highlighted: item == picker.highlighted, into: &buffer, row: row, end: end)
            }
        }
    }

    private func drawTitle(into buffer: inout CellBuffer, row: Int, end: Int) {
        let frame = picker.frame
        buffer.fill(row: row, from: frame.column, to: end, style: Theme.pickerTitle)
        let count = picker.results.total
        let shown = picker.results.matches.count
        let what = count == 0 ? "no one matches" : count == shown ? "\(count) \(count == 1 ? "user" : "users")" : "\(shown) of \(count) users"
        var x = buffer.write("─ @", column: frame.column, row: row, style: Theme.pickerTitle, limit: end)
        x = buffer.write(picker.query, column: x, row: row, style: Theme.pickerTitle.adding(.bold), limit: end)
        x = buffer.write(" · \(what) · ↑↓ Tab/Enter insert · Esc ", column: x, row: row, style: Theme.pickerTitle, limit: end)
        while x < end { x = buffer.write("─", column: x, row: row, style: Theme.pickerTitle, limit: end) }
    }

    private func drawUser(_ match: MentionMatch, highlighted: Bool, into buffer: inout CellBuffer, row: Int, end: Int) {
        let base = highlighted ? Theme.pickerHighlight : Theme.pickerRow
        if highlighted { buffer.fill(row: row, from: picker.frame.column, to: end, style: base) }
        var x = buffer.write(highlighted ? " ▸ " : "   ", column: picker.frame.column, row: row, style: base, limit: end)
        x = buffer.write("@" + match.user.handle, column: x, row: row, style: base.adding(.bold), limit: end)
        x = buffer.write("  ", column: x, row: row, style: base, limit: end)
        _ = buffer.write(match.user.name, column: x, row: row, style: base, limit: end)
    }
}
