/// Estimates a drag's velocity over the last `window` seconds from timed offset samples.
///
/// The offset is treated as piecewise linear between samples and constant after the last one, so
/// a pause before release gives zero velocity and a short flick right after the press counts from
/// the press itself.
struct DragVelocityTracker: Sendable {
    /// How far back the estimate looks, in seconds.
    var window: Double
    /// Samples in time order; trimmed to the window plus one earlier sample.
    private(set) var samples: [(time: ScrollInstant, offset: Double)] = []

    init(window: Double) {
        self.window = window
    }

    /// Records the offset at `time`.
    mutating func add(offset: Double, at time: ScrollInstant) {
        samples.append((time, offset))
        // Keep one sample older than the window: it anchors the interpolation at the window start.
        while samples.count > 2 && samples[1].time < time + (-window) { samples.removeFirst() }
    }

    /// Moves every sample by `delta` rows (content shifted under the drag).
    mutating func shift(by delta: Double) {
        samples = samples.map { ($0.time, $0.offset + delta) }
    }

    /// The velocity at `time`, in rows per second: the change over `[max(time − window, first), time]`.
    func velocity(at time: ScrollInstant) -> Double {
        guard let first = samples.first, let last = samples.last else { return 0 }
        let begin = max(time + (-window), first.time)
        let span = time - begin
        guard span > 1e-9 else { return 0 }
        return (last.offset - offset(at: begin)) / span
    }

    private func offset(at time: ScrollInstant) -> Double {
        var previous = samples[0]
        for sample in samples {
            if sample.time >= time {
                let dt = sample.time - previous.time
                guard dt > 0 else { return sample.offset }
                return previous.offset + (sample.offset - previous.offset) * ((time - previous.time) / dt)
            }
            previous = sample
        }
        return previous.offset
    }
}
