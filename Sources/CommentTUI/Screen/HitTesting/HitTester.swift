/// Layers in z-order; a point goes to the topmost layer whose shape contains it, like UIKit's
/// `hitTest` with `point(inside:with:)`.
public struct HitTester<LayerID: Hashable, ItemID: Hashable> {
    /// Layers from bottom (drawn first) to top (drawn last).
    public var layers: [HitLayer<LayerID, ItemID>]

    /// Creates a tester over layers given bottom to top.
    public init(layers: [HitLayer<LayerID, ItemID>] = []) {
        self.layers = layers
    }

    /// Puts a layer on top of the others.
    public mutating func push(_ layer: HitLayer<LayerID, ItemID>) {
        layers.append(layer)
    }

    /// Removes every layer with this id.
    public mutating func remove(_ id: LayerID) {
        layers.removeAll { $0.id == id }
    }

    /// The layer (and item) that receives an event at (`column`, `row`); nil if no shape holds it.
    public func hitTest(column: Int, row: Int) -> HitResult<LayerID, ItemID>? {
        for layer in layers.reversed() where layer.shape().contains(column: column, row: row) {
            return HitResult(layer: layer.id, item: layer.item(column, row))
        }
        return nil
    }
}
