/// A run of changed cells on one row, ready for a backend to write.
public struct CellChange: Equatable, Sendable {
    /// The row of the run.
    public var row: Int
    /// The column of its first cell (always a lead cell).
    public var column: Int
    /// The cells, continuations included.
    public var cells: [Cell]
}

extension CellBuffer {
    /// The runs that turn `old` into `self`; everything when the sizes differ.
    ///
    /// A run never starts on a continuation: a changed right half pulls in its lead, since the
    /// terminal can only draw a wide character whole.
    public func changes(from old: CellBuffer?) -> [CellChange] {
        guard let old, old.columns == columns, old.rows == rows else {
            return (0..<rows).compactMap { row in
                columns == 0 ? nil : CellChange(row: row, column: 0, cells: Array(cells[row * columns..<(row + 1) * columns]))
            }
        }
        var result: [CellChange] = []
        cells.withUnsafeBufferPointer { new in
            old.cells.withUnsafeBufferPointer { old in
                for row in 0..<rows {
                    let base = row * columns
                    // Most rows of a frame are unchanged: one comparison of plain data each. Equal
                    // bytes mean equal cells; unequal bytes (padding) fall through to the cells.
                    if ByteComparison.equal(new.baseAddress! + base, old.baseAddress! + base, count: columns * MemoryLayout<Cell>.stride) { continue }
                    var x = 0
                    while x < columns {
                        guard new[base + x] != old[base + x] else { x += 1; continue }
                        var start = x
                        if new[base + start].isContinuation, start > 0 { start -= 1 }
                        var end = start
                        while end < columns, new[base + end] != old[base + end] || new[base + end].isContinuation { end += 1 }
                        let cells = Array(new[(base + start)..<(base + end)])
                        if let last = result.last, last.row == row, last.column + last.cells.count == start {
                            result[result.count - 1].cells += cells
                        } else {
                            result.append(CellChange(row: row, column: start, cells: cells))
                        }
                        x = max(end, x + 1)
                    }
                }
            }
        }
        return result
    }

    /// The buffer with the rows in `region` moved up by `shift` rows (down when negative), as a
    /// terminal's scroll region would move them; rows scrolled in are blank.
    func shiftingRows(_ region: Range<Int>, up shift: Int) -> CellBuffer {
        var result = self
        let region = region.clamped(to: 0..<rows)
        for row in region {
            let source = row + shift
            let target = row * columns..<(row + 1) * columns
            if region.contains(source) {
                result.cells.replaceSubrange(target, with: cells[source * columns..<(source + 1) * columns])
            } else {
                result.cells.replaceSubrange(target, with: repeatElement(.blank, count: columns))
            }
        }
        return result
    }

    /// Applies runs to a buffer, as a backend would (used to check diffs in tests).
    public mutating func apply(_ changes: [CellChange]) {
        for change in changes {
            var x = change.column
            for cell in change.cells {
                if !cell.isContinuation {
                    put(DisplayCluster(text: cell.text, width: Int(cell.width)), column: x, row: change.row, style: cell.style)
                }
                x += 1
            }
        }
    }
}
