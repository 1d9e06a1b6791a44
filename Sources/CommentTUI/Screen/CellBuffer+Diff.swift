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
        let full = old == nil || old!.columns != columns || old!.rows != rows
        var result: [CellChange] = []
        for row in 0..<rows {
            var x = 0
            while x < columns {
                guard full || self[x, row] != old![x, row] else { x += 1; continue }
                var start = x
                if self[start, row].isContinuation, start > 0 { start -= 1 }
                var cells: [Cell] = []
                var end = start
                while end < columns, full || self[end, row] != old![end, row] || self[end, row].isContinuation {
                    cells.append(self[end, row])
                    end += 1
                }
                if let last = result.last, last.row == row, last.column + last.cells.count == start {
                    result[result.count - 1].cells += cells
                } else {
                    result.append(CellChange(row: row, column: start, cells: cells))
                }
                x = max(end, x + 1)
            }
        }
        return result
    }

    /// The buffer with the rows in `region` moved up by `shift` rows (down when negative), as a
    /// terminal's scroll region would move them; rows scrolled in are blank.
    public func shiftingRows(_ region: Range<Int>, up shift: Int) -> CellBuffer {
        var result = self
        let region = region.clamped(to: 0..<rows)
        for row in region {
            let source = row + shift
            for column in 0..<columns {
                result.cells[row * columns + column] = region.contains(source) ? cells[source * columns + column] : .blank
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
