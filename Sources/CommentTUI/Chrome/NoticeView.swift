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

    /// The key page (F1): every line of the key map.
    static func drawHelp(into buffer: inout CellBuffer, rect: CellRect) {
        let end = rect.column + rect.width
        for r in rect.row..<rect.maxRow { buffer.fill(row: r, from: rect.column, to: end) }
        buffer.write("Keys (Esc or F1 closes)", column: rect.column + 1, row: rect.row, style: Theme.title, limit: end)
        // The keys' column fits the longest key (up to half the width); descriptions are cut at the edge.
        let lines = KeyMap.helpLines
        let keyWidth = min(lines.map { DisplayWidth.width(of: $0.keys) }.max()! + 2, max(10, rect.width / 2))
        for (i, line) in lines.enumerated() {
            let row = rect.row + 1 + i
            guard row < rect.maxRow else { break }
            buffer.write(line.keys, column: rect.column + 1, row: row, style: Theme.authorName, limit: rect.column + keyWidth)
            buffer.write(line.action, column: rect.column + 1 + keyWidth, row: row, limit: end)
        }
    }
}
