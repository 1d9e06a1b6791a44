/// The cells a layer accepts events in: a union of rectangles.
public struct HitShape: Hashable, Sendable {
    /// Disjoint rectangles covering the shape.
    public private(set) var rects: [CellRect]

    /// Creates a shape from rectangles (overlaps are removed).
    public init(_ rects: [CellRect] = []) {
        self.rects = []
        for rect in rects { formUnion(rect) }
    }

    /// A shape covering one rectangle.
    public init(_ rect: CellRect) {
        self.init([rect])
    }

    /// No cells.
    public static let empty = HitShape()

    /// Whether the shape holds no cell.
    public var isEmpty: Bool { rects.isEmpty }

    /// Number of cells in the shape.
    public var area: Int { rects.reduce(0) { $0 + $1.width * $1.height } }

    /// Whether the cell at (`column`, `row`) is inside.
    public func contains(column: Int, row: Int) -> Bool {
        rects.contains { $0.contains(column: column, row: row) }
    }

    /// Adds a rectangle's cells.
    public mutating func formUnion(_ rect: CellRect) {
        guard !rect.isEmpty else { return }
        var pieces = [rect]
        for existing in rects { pieces = pieces.flatMap { $0.subtracting(existing) } }
        rects += pieces
    }

    /// Removes a rectangle's cells.
    public mutating func subtract(_ rect: CellRect) {
        rects = rects.flatMap { $0.subtracting(rect) }
    }

    /// The shape without a rectangle's cells.
    public func subtracting(_ rect: CellRect) -> HitShape {
        var copy = self
        copy.subtract(rect)
        return copy
    }

    /// The shape without another shape's cells.
    public func subtracting(_ other: HitShape) -> HitShape {
        other.rects.reduce(self) { $0.subtracting($1) }
    }
}
