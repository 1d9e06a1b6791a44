/// A rectangle of cells on the screen.
public struct ScreenRect: Equatable, Sendable {
    public var column: Int
    public var row: Int
    public var width: Int
    public var height: Int

    public init(column: Int, row: Int, width: Int, height: Int) {
        self.column = column; self.row = row; self.width = max(0, width); self.height = max(0, height)
    }

    /// The row after the last one.
    public var maxRow: Int { row + height }

    /// Whether a cell lies inside.
    public func contains(column c: Int, row r: Int) -> Bool {
        c >= column && c < column + width && r >= row && r < row + height
    }
}
