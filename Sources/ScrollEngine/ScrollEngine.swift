// ScrollEngine: a pure scroll model (geometry, phases, momentum, animations, debounced end,
// observers, position by id, snapping) and hit testing of layered regions.
// No ncurses, no clock reads, no I/O: time is passed in as `ScrollInstant` values.

/// The version of the ScrollEngine module.
public enum ScrollEngineVersion {
    /// The version string.
    public static let value = "0.2"
}
