/// What a scroll view is doing, like SwiftUI's `ScrollPhase`.
public enum ScrollPhase: String, Hashable, Sendable, CaseIterable {
    /// At rest; nothing pending but timers.
    case idle
    /// A button is down on the view and has not moved yet.
    case tracking
    /// The user is moving the content: a drag, or a burst of wheel notches.
    case interacting
    /// Motion left over from a gesture: momentum, or a velocity-continuous move to a snap target.
    case decelerating
    /// A programmatic move (`scrollTo`, keys, the after-debounce snap).
    case animating

    /// Whether the user is holding or moving the content.
    public var isUserDriven: Bool { self == .tracking || self == .interacting }

    /// Whether the offset is changing by itself.
    var isMoving: Bool { self == .decelerating || self == .animating }

    /// The phases this phase may change to (see docs/ScrollEngine.md for the triggers).
    public var legalSuccessors: Set<ScrollPhase> {
        switch self {
        case .idle: [.tracking, .interacting, .animating]
        case .tracking: [.idle, .interacting, .decelerating, .animating]
        case .interacting: [.idle, .tracking, .decelerating, .animating]
        case .decelerating: [.idle, .tracking, .interacting, .animating]
        case .animating: [.idle, .tracking, .interacting]
        }
    }

    /// Whether the change from `old` to `new` is allowed (staying put is not a change).
    static func isLegalTransition(from old: ScrollPhase, to new: ScrollPhase) -> Bool {
        old.legalSuccessors.contains(new)
    }
}
