/// A header that collapses as the content scrolls: progress 0 (expanded) to 1 (collapsed) over the
/// first `distance` rows of offset; a scroll that ends part-way snaps to 0 or 1.
public struct HeaderCollapse: Hashable, Sendable {
    /// Rows of offset over which the header collapses (at least 1).
    public var distance: Double

    /// Creates a collapse over `distance` rows.
    public init(distance: Double) {
        self.distance = max(1, distance)
    }

    /// `clamp(offset / distance, 0, 1)`.
    public func progress(offset: Double) -> Double {
        min(max(offset / distance, 0), 1)
    }

    /// Where a scroll that would come to rest at `projectedOffset` should end: outside the
    /// collapse range it is left alone; inside, it goes to the nearer of 0 and `distance`.
    func snapTarget(projectedOffset: Double) -> Double {
        guard projectedOffset > 0, projectedOffset < distance else { return projectedOffset }
        return progress(offset: projectedOffset) < 0.5 ? 0 : distance
    }
}
