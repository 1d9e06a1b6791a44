import ScrollEngine

/// The composer's rows while Ctrl-S searches: the query after a prompt.
struct SearchBarView {
    var query: String
    static let prompt = "search: "

    /// Draws into `rect`; returns the screen position of the cursor (after the query).
    func draw(into buffer: inout CellBuffer, rect: CellRect) -> CursorPosition {
        let end = rect.column + rect.width
        for r in rect.row..<rect.maxRow { buffer.fill(row: r, from: rect.column, to: end) }
        var x = buffer.write(Self.prompt, column: rect.column, row: rect.row, style: Theme.prompt, limit: end)
        x = buffer.write(query, column: x, row: rect.row, limit: end - 1)
        return CursorPosition(column: min(x, end - 1), row: rect.row)
    }
}
