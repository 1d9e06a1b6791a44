import ScrollEngine
/// The composer: a prompt and the draft, wrapped, scrolled so the cursor shows.
struct ComposerView {
    var draft: ComposerDraft
    static let prompt = "› "

    /// Rows of clusters, and where the cursor falls (row, column within the text area).
    func rows(width: Int) -> (rows: [[DisplayCluster]], cursor: (row: Int, column: Int)) {
        let width = max(1, width)
        var rows: [[DisplayCluster]] = [[]]
        var used = 0
        var cursor = (row: 0, column: 0)
        for (offset, character) in draft.text.enumerated() {
            if offset == draft.cursor { cursor = (rows.count - 1, used) }
            if character == "\n" {
                rows.append([]); used = 0
                continue
            }
            for cluster in DisplayWidth.clusters(of: character) {
                if used + cluster.width > width { rows.append([]); used = 0 }
                rows[rows.count - 1].append(cluster)
                used += cluster.width
            }
        }
        if draft.cursor >= draft.text.count {
            if used >= width { rows.append([]); used = 0 }
            cursor = (rows.count - 1, used)
        }
        return (rows, cursor)
    }

    /// Rows the composer wants at a width, up to `maximum`.
    func height(width: Int, maximum: Int) -> Int {
        min(max(1, rows(width: width - 2).rows.count), max(1, maximum))
    }

    /// Draws into `rect`; returns the screen position of the cursor.
    func draw(into buffer: inout CellBuffer, rect: CellRect) -> CursorPosition {
        let textWidth = rect.width - 2
        let (rows, cursor) = rows(width: textWidth)
        let first = max(0, min(cursor.row - rect.height + 1, rows.count - rect.height))
        let end = rect.column + rect.width
        for r in 0..<rect.height {
            let screenRow = rect.row + r
            buffer.fill(row: screenRow, from: rect.column, to: end)
            if r == 0 && first == 0 {
                buffer.write(Self.prompt, column: rect.column, row: screenRow, style: Theme.prompt)
            }
            let index = first + r
            guard index < rows.count else { continue }
            var x = rect.column + 2
            for cluster in rows[index] { x = buffer.put(cluster, column: x, row: screenRow, style: .plain, limit: end) }
        }
        return CursorPosition(column: rect.column + 2 + cursor.column, row: rect.row + cursor.row - first)
    }
}
