/// One column of the screen: a grapheme cluster that is safe to hand to ncurses, and its style.
///
/// A cluster two columns wide occupies its lead cell and a continuation cell to its right;
/// the continuation carries no text of its own.
public struct Cell: Hashable, Sendable {
    /// The cluster drawn here; empty for a continuation cell.
    public private(set) var text: String
    /// How the cell looks.
    public var style: CellStyle
    /// Columns the cluster takes: 1 or 2 for a lead cell, 0 for a continuation.
    public private(set) var width: UInt8

    /// A blank cell.
    public static let blank = Cell(trusted: " ", width: 1, style: .plain)

    /// Builds a cell from a cluster already made safe by `DisplayWidth`.
    init(trusted text: String, width: UInt8, style: CellStyle) {
        self.text = text
        self.width = width
        self.style = style
    }

    /// The right half of a wide cluster.
    static func continuation(style: CellStyle) -> Cell {
        Cell(trusted: "", width: 0, style: style)
    }

    /// Whether this is the right half of a wide cluster.
    public var isContinuation: Bool { width == 0 }
}
