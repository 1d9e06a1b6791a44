/// A reading position: an item and the row inside it shown on the viewport's top row.
///
/// `row` may be fractional while moving, negative for the first item when the top inset is
/// showing, and past the item's height for the last item when the bottom inset is showing.
public struct ScrollAnchor<ID: Hashable>: Hashable {
    /// The item on the viewport's top row.
    public var id: ID
    /// The row inside that item on the viewport's top row.
    public var row: Double

    /// Creates an anchor.
    public init(id: ID, row: Double) {
        self.id = id
        self.row = row
    }
}

extension ScrollAnchor: Sendable where ID: Sendable {}
