// ScrollEngine: a pure scroll model (geometry, phases, momentum, animations, debounced end,
// observers, position by id, snapping). Screen rectangles and hit testing live in CommentTUI
// (Screen/), which owns the screen.
// No ncurses, no clock reads, no I/O: time is passed in as `ScrollInstant` values.

/// The version of the ScrollEngine module.
public enum ScrollEngineVersion {
    /// The version string.
    public static let value = "0.2"
}
