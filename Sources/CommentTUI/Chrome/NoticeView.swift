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

    /// Every key of the client (DESIGN section 7; README's table says the same).
    static let helpLines: [(String, String)] = [
        ("Enter · Alt-Enter, Ctrl-J", "send · new line"),
        ("Ctrl-C, F10, Ctrl-D (empty)", "quit (the draft is kept)"),
        ("PageUp / PageDown", "feed by a page (the list's, when open)"),
        ("Ctrl-Up/Down, Shift-Up/Down", "feed by a row"),
        ("Ctrl-Home / Ctrl-End", "feed to the post / the newest"),
        ("wheel, drag, scrollbar", "scroll with momentum, jump"),
        ("Alt-U · Ctrl-S", "first unread · search (Enter older, Esc)"),
        ("Alt-Up / Alt-Down · Esc", "select a comment · clear"),
        ("Alt-S · Alt-E · Alt-O · Alt-R", "spoilers · expand · open link · reply"),
        ("click", "reveal spoiler, expand, open link"),
        ("Ctrl-A/E, Ctrl-B/F, Alt-B/F", "line start/end, char, word"),
        ("arrows, Home/End", "move in the draft (Up/Down by row)"),
        ("Ctrl-K/U/W, Alt-D, Ctrl-Y", "kill and yank"),
        ("Shift-Left/Right, Shift-Home/End", "select text in the draft"),
        ("Ctrl-_ · Alt-_", "undo · redo"),
        ("Ctrl-X then b i s c p", "bold italic strike code spoiler"),
        ("Ctrl-X Ctrl-E", "edit the draft in $EDITOR"),
        ("@ · Up/Down · Tab, Enter · Esc", "mention list · move · insert · close"),
        ("F1 · F2 · F3", "help · hit-test inspector · scroll events"),
        ("Ctrl-L · Ctrl-Z", "redraw · suspend"),
        ("Shift+drag", "select text with the terminal"),
    ]

    static func drawHelp(into buffer: inout CellBuffer, rect: CellRect) {
        let end = rect.column + rect.width
        for r in rect.row..<rect.maxRow { buffer.fill(row: r, from: rect.column, to: end) }
        buffer.write("Keys (Esc or F1 closes)", column: rect.column + 1, row: rect.row, style: Theme.title, limit: end)
        // The keys' column fits the longest key (up to half the width); descriptions are cut at the edge.
        let keyWidth = min(helpLines.map { DisplayWidth.width(of: $0.0) }.max()! + 2, max(10, rect.width / 2))
        for (i, entry) in helpLines.enumerated() {
            let row = rect.row + 1 + i
            guard row < rect.maxRow else { break }
            buffer.write(entry.0, column: rect.column + 1, row: row, style: Theme.authorName, limit: rect.column + keyWidth)
            buffer.write(entry.1, column: rect.column + 1 + keyWidth, row: row, limit: end)
        }
    }
}
