import ScrollEngine

/// The composer: a prompt and the draft's rows, scrolled so the caret shows.
struct ComposerView {
    var window: ComposerWindow
    /// Said dimly in an empty draft's row: why what is typed cannot be sent (an encrypted room).
    var placeholder: String? = nil
    var layout: ComposerLayout { window.layout }
    var caret: Int { window.caret }
    static let prompt = "› "
    static let promptWidth = 2

    /// Rows the composer wants, up to `maximum`.
    var height: Int { layout.rows.count }

    /// Draws into `rect`; returns the screen position of the caret.
    func draw(into buffer: inout CellBuffer, rect: CellRect) -> CursorPosition {
        let rows = layout.rows
        let caret = layout.position(ofOffset: caret)
        let first = firstRow(height: rect.height)
        let end = rect.column + rect.width
        for r in 0..<rect.height {
            let screenRow = rect.row + r
            buffer.fill(row: screenRow, from: rect.column, to: end)
            if r == 0 && first == 0 && !window.clippedAbove {
                buffer.write(Self.prompt, column: rect.column, row: screenRow, style: Theme.prompt)
            } else if r == 0 {
                // More rows above: say so where the prompt was.
                buffer.write("↑", column: rect.column, row: screenRow, style: Theme.dim)
            }
            if r == 0, first == 0, let placeholder, rows.allSatisfy(\.isEmpty) {
                buffer.write(placeholder, column: rect.column + Self.promptWidth, row: screenRow, style: Theme.dim, cuttingAt: end)
            }
            let index = first + r
            guard index < rows.count else { continue }
            var x = rect.column + Self.promptWidth
            for cell in rows[index] { x = buffer.put(cell.cluster, column: x, row: screenRow, style: cell.style, limit: end) }
        }
        return CursorPosition(column: rect.column + Self.promptWidth + caret.column, row: rect.row + caret.row - first)
    }

    /// The first row shown when `height` rows fit: the caret's row is always among them.
    func firstRow(height: Int) -> Int {
        let caretRow = layout.rowIndex(containing: caret)
        return max(0, min(caretRow - height + 1, layout.rows.count - height))
    }
}
