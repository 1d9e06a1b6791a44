import ScrollEngine
/// The full-screen notice of a terminal too small to lay out in (the F1 page is a `Pager`).
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
}
