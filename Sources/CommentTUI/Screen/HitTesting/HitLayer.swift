/// One region in a hit-test stack: a shape and a way to name the item under a point.
public struct HitLayer<LayerID: Hashable, ItemID: Hashable> {
    /// The layer's name.
    public var id: LayerID
    /// The cells the layer accepts events in, computed at query time (so it can be derived from
    /// live geometry, e.g. a scroll model's offset).
    public var shape: () -> HitShape
    /// The item under a screen cell (column, row) inside the shape, if the layer has items.
    public var item: (Int, Int) -> ItemID?

    /// Creates a layer whose shape is computed at query time.
    public init(id: LayerID, shape: @escaping () -> HitShape, item: @escaping (Int, Int) -> ItemID? = { _, _ in nil }) {
        self.id = id
        self.shape = shape
        self.item = item
    }

    /// Creates a layer with a fixed shape.
    public init(id: LayerID, shape: HitShape, item: @escaping (Int, Int) -> ItemID? = { _, _ in nil }) {
        self.init(id: id, shape: { shape }, item: item)
    }
}

/// The answer to "who gets an event here".
public struct HitResult<LayerID: Hashable, ItemID: Hashable>: Hashable {
    /// The layer that receives the event.
    public var layer: LayerID
    /// The item under the point in that layer, if any.
    public var item: ItemID?

    /// Creates a result.
    public init(layer: LayerID, item: ItemID? = nil) {
        self.layer = layer
        self.item = item
    }
}
