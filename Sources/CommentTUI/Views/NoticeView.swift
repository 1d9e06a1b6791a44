import ScrollEngine
/// Full-screen notices: too small a terminal, and the help page.
enum NoticeView {
    /// The smallest terminal the client lays out in.
    static let minimumSize = (columns: 20, rows: 8)

    static func drawTooSmall(into buffer: inout CellBuffer) {
        let lines = ["too small", "need \(minimumSize.columns)x\(minimumSize.rows)", "have \(buffer.columns)x\(buffer.rows)"]
        let top = max(0, (buffer.rows - lines.count) / 2)
        for (i, line) in lines.enumerated() where top + i < buffer.rows {
            let x = max(0, (buffer.columns - line.count) / 2)
            buffer.write(line, column: x, row: top + i, style: i == 0 ? Theme.notice : Theme.dim)
        }
    }

    /// The keys the client knows today (DESIGN section 7, as far as built).
    static let helpLines: [(String, String)] = [
        ("Enter", "send"),
        ("Alt-Enter, Ctrl-J", "new line"),
        ("Ctrl-C, F10, Ctrl-D (empty)", "quit (the draft is kept)"),
        ("PageUp / PageDown", "feed by a page"),
        ("Ctrl-Up / Ctrl-Down", "feed by a row (also Shift-Up/Down)"),
        ("Ctrl-Home / Ctrl-End", "feed to the post / the newest"),
        ("wheel, drag, scrollbar", "scroll with momentum, jump"),
        ("Alt-U · Ctrl-S", "first unread · search (Enter next)"),
        ("Alt-Up / Alt-Down · Esc", "select a comment · clear"),
        ("Alt-S · Alt-E · Alt-O", "spoilers · expand · open link"),
        ("click", "reveal spoiler, expand, open link"),
        ("Ctrl-A/E, Ctrl-B/F, Alt-B/F", "move in the composer"),
        ("Ctrl-K/U/W, Alt-D, Ctrl-Y", "kill and yank"),
        ("F1 · F3 · Ctrl-L · Ctrl-Z", "help · scroll events · redraw · suspend"),
        ("Shift+drag", "select text with the terminal"),
    ]

    static func drawHelp(into buffer: inout CellBuffer, rect: CellRect) {
        let end = rect.column + rect.width
        for r in rect.row..<rect.maxRow { buffer.fill(row: r, from: rect.column, to: end) }
        buffer.write("Keys (Esc or F1 closes)", column: rect.column + 1, row: rect.row, style: Theme.title, limit: end)
        let keyWidth = min(30, max(10, rect.width / 2))
        for (i, entry) in helpLines.enumerated() {
            let row = rect.row + 2 + i
            guard row < rect.maxRow else { break }
            buffer.write(entry.0, column: rect.column + 1, row: row, style: Theme.authorName, limit: rect.column + keyWidth)
            buffer.write(entry.1, column: rect.column + 1 + keyWidth, row: row, limit: end)
        }
    }
}
