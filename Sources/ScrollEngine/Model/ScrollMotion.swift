/// Where a programmatic move is headed; re-resolved when the content changes under it.
enum ScrollTarget<ID: Hashable> {
    /// A fixed offset (shifted with the content when items are inserted above).
    case offset(Double)
    /// A row of an item placed at the given viewport alignment.
    case item(ID, row: Int, alignment: ScrollAlignment)
    /// The start of the content, wherever it is when the move ends (content growing above the
    /// viewport while on the way, such as a header re-wrapped by a resize, does not stop it short).
    case top
    /// The end of the content, wherever it is when the move ends.
    case bottom
}

/// The motion the model follows by itself between inputs.
enum ScrollMotion<ID: Hashable> {
    /// Exponential decay after a gesture (or gliding inside a fast wheel burst).
    case momentum(Momentum)
    /// A timed move to a target.
    case animation(ScrollAnimation, target: ScrollTarget<ID>)

    var endTime: ScrollInstant {
        switch self {
        case .momentum(let m): m.endTime
        case .animation(let a, _): a.endTime
        }
    }

    func position(at time: ScrollInstant) -> Double {
        switch self {
        case .momentum(let m): m.position(at: time)
        case .animation(let a, _): a.position(at: time)
        }
    }

    func velocity(at time: ScrollInstant) -> Double {
        switch self {
        case .momentum(let m): m.velocity(at: time)
        case .animation(let a, _): a.velocity(at: time)
        }
    }

    var isAnimation: Bool {
        if case .animation = self { return true }
        return false
    }
}

/// A button held on the view.
struct PointerGesture {
    /// Viewport row of the press.
    var pressRow: Int
    /// The offset at the press; a drag sets `offsetAtPress + (pressRow − row)`.
    var offsetAtPress: Double
    /// Whether the pointer has moved off the press row.
    var moved = false
    /// Timed offsets for the release velocity.
    var tracker: DragVelocityTracker
}

/// A run of wheel notches; it ends after the quiet period.
struct WheelBurst {
    /// When the last notch arrived.
    var lastNotch: ScrollInstant
    /// +1 towards the end of the content, −1 towards the start.
    var direction: Int
}

/// The user's gesture in progress.
enum ScrollGesture {
    case none
    case pointer(PointerGesture)
    case wheel(WheelBurst)
}
