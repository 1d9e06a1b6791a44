/// Variable item heights keyed by item id, with O(log n) offset-to-item and item-to-offset lookups.
///
/// Items are held in two Fenwick trees: `back` holds the first batch and every appended item in
/// display order; `front` holds prepended items in *reverse* display order, so prepending is an
/// append to `front`. Appends to a Fenwick tree cost O(log n) and never move existing slots, so
/// prepending a batch of k items costs O(k log(n + k)), with no O(n) shift per item or per batch.
/// An item's display index is derived from its slot: front slot j is index `front.count - 1 - j`,
/// back slot j is index `front.count + j`.
public struct ItemHeights<ID: Hashable> {
    private var front = FenwickTree()
    private var back = FenwickTree()
    private var frontIDs: [ID] = []
    private var backIDs: [ID] = []
    /// Slot of each id: `>= 0` is a back slot, `< 0` is front slot `-slot - 1`.
    private var slots: [ID: Int] = [:]

    /// Creates an empty list.
    public init() {}

    /// Creates the list from items in display order, in O(n).
    public init(_ items: [(id: ID, height: Int)]) {
        // One plain loop: key paths on tuples cost far more than the work itself at 10⁶ items.
        var heights: [Int] = []
        heights.reserveCapacity(items.count)
        backIDs.reserveCapacity(items.count)
        slots.reserveCapacity(items.count)
        for i in items.indices {
            let item = items[i]
            backIDs.append(item.id)
            heights.append(max(0, item.height))
            if slots.updateValue(i, forKey: item.id) != nil { preconditionFailure("duplicate item id \(item.id)") }
        }
        back = FenwickTree(heights)
    }

    /// Number of items.
    public var count: Int { front.count + back.count }

    /// Whether there are no items.
    public var isEmpty: Bool { count == 0 }

    /// Sum of all heights, in rows.
    public var totalHeight: Int { front.total + back.total }

    /// Whether an item with this id exists.
    public func contains(_ id: ID) -> Bool { slots[id] != nil }

    /// The display index of the item, in O(1).
    public func index(of id: ID) -> Int? {
        guard let slot = slots[id] else { return nil }
        return slot >= 0 ? front.count + slot : front.count - 1 - (-slot - 1)
    }

    /// The id of the item at a display index.
    public func id(at index: Int) -> ID {
        index < front.count ? frontIDs[front.count - 1 - index] : backIDs[index - front.count]
    }

    /// The height of the item at a display index.
    public func height(at index: Int) -> Int {
        index < front.count ? front.values[front.count - 1 - index] : back.values[index - front.count]
    }

    /// The height of the item, if it exists.
    public func height(of id: ID) -> Int? {
        index(of: id).map(height(at:))
    }

    /// The first row of the item at a display index (its offset from the content start), O(log n).
    public func offset(ofIndex index: Int) -> Int {
        if index < front.count {
            // Items before it are the front slots with a larger slot number.
            return front.total - front.prefixSum(front.count - index)
        }
        return front.total + back.prefixSum(index - front.count)
    }

    /// The first row of the item, if it exists, O(log n).
    public func offset(of id: ID) -> Int? {
        index(of: id).map(offset(ofIndex:))
    }

    /// The display index of the item covering content row `row`, O(log n); rows outside the
    /// content map to the first or last item, and zero-height items are never returned unless
    /// all items are empty.
    public func index(containingRow row: Int) -> Int? {
        guard !isEmpty else { return nil }
        let total = totalHeight
        guard total > 0 else { return 0 }
        let row = min(max(row, 0), total - 1)
        if row < front.total {
            // Front slot j spans rows [front.total - prefix(j + 1), front.total - prefix(j)).
            let fromEnd = front.total - row  // in 1...front.total
            let slotsBefore = front.count(withPrefixAtMost: fromEnd - 1)
            return front.count - 1 - slotsBefore
        }
        let slot = back.count(withPrefixAtMost: row - front.total)
        return front.count + slot
    }

    /// Appends an item after the last one, O(log n).
    public mutating func append(id: ID, height: Int) {
        precondition(slots.updateValue(back.count, forKey: id) == nil, "duplicate item id \(id)")
        backIDs.append(id)
        back.append(max(0, height))
    }

    /// Appends items in display order, O(k log n).
    public mutating func append(contentsOf items: [(id: ID, height: Int)]) {
        for item in items { append(id: item.id, height: item.height) }
    }

    /// Inserts items, given in display order, before the first one: O(k log(n + k)).
    public mutating func prepend(contentsOf items: [(id: ID, height: Int)]) {
        for item in items.reversed() {
            precondition(slots.updateValue(-front.count - 1, forKey: item.id) == nil, "duplicate item id \(item.id)")
            frontIDs.append(item.id)
            front.append(max(0, item.height))
        }
    }

    /// Changes the height of an existing item, O(log n); returns false if the id is unknown.
    @discardableResult
    mutating func setHeight(_ height: Int, for id: ID) -> Bool {
        guard let slot = slots[id] else { return false }
        if slot >= 0 {
            back.set(max(0, height), at: slot)
        } else {
            front.set(max(0, height), at: -slot - 1)
        }
        return true
    }

    /// All items in display order (O(n); for tests and rebuilds).
    public var items: [(id: ID, height: Int)] {
        (0..<count).map { (id(at: $0), height(at: $0)) }
    }

    /// Checks both trees, the id map and lookups against a naive scan (O(n log n); tests only).
    func _checkInvariants() {
        front._checkInvariants()
        back._checkInvariants()
        precondition(frontIDs.count == front.count && backIDs.count == back.count, "id arrays out of step")
        precondition(slots.count == count, "id map out of step")
        var row = 0
        for i in 0..<count {
            let id = id(at: i)
            precondition(index(of: id) == i, "index(of:) disagrees at \(i)")
            precondition(offset(ofIndex: i) == row, "offset(ofIndex:) disagrees at \(i)")
            let h = height(at: i)
            if h > 0 {
                precondition(index(containingRow: row) == i, "index(containingRow:) disagrees at row \(row)")
                precondition(index(containingRow: row + h - 1) == i, "index(containingRow:) disagrees at row \(row + h - 1)")
            }
            row += h
        }
        precondition(row == totalHeight, "total height is stale")
    }
}
