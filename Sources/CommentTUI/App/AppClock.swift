import ScrollEngine

/// The app's one monotonic clock, shared by reference with every feature model.
///
/// Each event and each frame moves it first, and the features read it rather than keeping a copy
/// of their own: a key after a long pause then starts its motion at the key's time, not at the
/// last frame's (a copy moved only when a frame was prepared once made such a motion end before
/// its first frame).
final class AppClock {
    /// The time now; never runs backwards.
    private(set) var now: ScrollInstant

    init(now: ScrollInstant = .zero) {
        self.now = now
    }

    /// Moves the clock to `time`; an earlier time is ignored.
    func move(to time: ScrollInstant) {
        now = max(now, time)
    }
}
