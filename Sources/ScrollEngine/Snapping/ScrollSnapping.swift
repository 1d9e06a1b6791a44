/// Where a scroll may come to rest.
public enum SnapTargets: Hashable, Sendable {
    /// Anywhere.
    case none
    /// At one of these offsets (the nearest one wins).
    case offsets([Double])
    /// At the first row of an item (the nearest item boundary wins).
    case itemBoundaries
    /// Fully expanded or fully collapsed header, anywhere past the collapse range.
    case headerCollapse(HeaderCollapse)
}

/// When snapping happens.
public enum SnapMode: Hashable, Sendable {
    /// When a gesture ends, pick the target nearest the projected resting place and move there in
    /// one velocity-continuous motion (phase `decelerating`).
    case projected
    /// The SwiftUI collapsing-header talk's way: after the debounced "scroll ended", animate to the nearest target
    /// (phase `animating`). A debounce that fires while the button is held waits for idle.
    case afterDebounce
}

/// Snapping configuration: targets and mode.
public struct ScrollSnapping: Hashable, Sendable {
    /// Where the scroll may rest.
    public var targets: SnapTargets
    /// When snapping happens.
    public var mode: SnapMode

    /// Creates a configuration.
    public init(targets: SnapTargets, mode: SnapMode = .projected) {
        self.targets = targets
        self.mode = mode
    }

    /// No snapping.
    public static let none = ScrollSnapping(targets: .none)

    /// Whether any snapping is configured.
    public var isEnabled: Bool { targets != .none }

    /// The resting place for a scroll projected to end at `projected`, before clamping;
    /// `itemStart` gives the first row and height of the item covering a row.
    func target(for projected: Double, itemStart: (Double) -> (start: Double, height: Double)?) -> Double {
        switch targets {
        case .none:
            return projected
        case .offsets(let offsets):
            return offsets.min { abs($0 - projected) < abs($1 - projected) } ?? projected
        case .itemBoundaries:
            guard let item = itemStart(projected) else { return projected }
            let end = item.start + item.height
            return projected - item.start <= end - projected ? item.start : end
        case .headerCollapse(let header):
            return header.snapTarget(projectedOffset: projected)
        }
    }
}
