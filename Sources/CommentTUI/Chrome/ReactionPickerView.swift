import ScrollEngine

/// The composer's rows while the reaction picker is open: the choices under their digits, then
/// what the reader typed.
struct ReactionPickerView {
    var picker: ReactionPicker
    static let prompt = "react: "
    static let hint = "  (1-9, or an emoji or :shortcode: then Enter · Esc)"

    /// Draws into `rect`; returns the screen position of the cursor (after what was typed).
    func draw(into buffer: inout CellBuffer, rect: CellRect) -> CursorPosition {
        let end = rect.column + rect.width
        for r in rect.row..<rect.maxRow { buffer.fill(row: r, from: rect.column, to: end) }
        var x = buffer.write(Self.prompt, column: rect.column, row: rect.row, style: Theme.prompt, limit: end)
        for (n, key) in picker.choices.enumerated() {
            x = buffer.write("\(n + 1)", column: x, row: rect.row, style: Theme.dim, limit: end)
            for cluster in ReactionRow.key(key) { x = buffer.put(cluster, column: x, row: rect.row, style: .plain, limit: end) }
            x += 1
        }
        x = buffer.write("› ", column: x, row: rect.row, style: Theme.prompt, limit: end)
        let cursor = buffer.write(picker.query, column: x, row: rect.row, limit: end - 1)
        if picker.query.isEmpty, rect.height > 1 {
            buffer.write(String(Self.hint.dropFirst(2)), column: rect.column, row: rect.row + 1, style: Theme.dim, limit: end)
        } else if picker.query.isEmpty {
            buffer.write(Self.hint, column: cursor, row: rect.row, style: Theme.dim, limit: end)
        }
        return CursorPosition(column: min(cursor, end - 1), row: rect.row)
    }
}
