/// A rectangle of whole terminal cells, in screen coordinates (column, row from the top-left).
public struct CellRect: Hashable, Sendable, CustomStringConvertible {
    /// Left column.
    public var column: Int
    /// Top row.
    public var row: Int
    /// Width in columns (never negative).
    public var width: Int
    /// Height in rows (never negative).
    public var height: Int

    /// Creates a rectangle; negative sizes become zero.
    public init(column: Int, row: Int, width: Int, height: Int) {
        self.column = column
        self.row = row
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The column just right of the rectangle.
    public var maxColumn: Int { column + width }
    /// The row just below the rectangle.
    public var maxRow: Int { row + height }
    /// Whether the rectangle holds no cell.
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// Whether the cell at (`column`, `row`) lies inside.
    public func contains(column: Int, row: Int) -> Bool {
        column >= self.column && column < maxColumn && row >= self.row && row < maxRow
    }

    /// The cells in both rectangles (empty if they do not overlap).
    public func intersection(_ other: CellRect) -> CellRect {
        let left = max(column, other.column), top = max(row, other.row)
        let right = min(maxColumn, other.maxColumn), bottom = min(maxRow, other.maxRow)
        return CellRect(column: left, row: top, width: right - left, height: bottom - top)
    }

    /// The cells of this rectangle outside `other`, as at most four disjoint rectangles.
    public func subtracting(_ other: CellRect) -> [CellRect] {
        let cut = intersection(other)
        if cut.isEmpty { return isEmpty ? [] : [self] }
        // Full-width bands above and below the cut, then the two sides beside it.
        let pieces = [
            CellRect(column: column, row: row, width: width, height: cut.row - row),
            CellRect(column: column, row: cut.maxRow, width: width, height: maxRow - cut.maxRow),
            CellRect(column: column, row: cut.row, width: cut.column - column, height: cut.height),
            CellRect(column: cut.maxColumn, row: cut.row, width: maxColumn - cut.maxColumn, height: cut.height),
        ]
        return pieces.filter { !$0.isEmpty }
    }

    /// `column,row widthxheight`, for test messages.
    public var description: String { "(\(column),\(row) \(width)x\(height))" }
}
