/// The shape of an animated move from one offset to another.
public enum ScrollEasing: Hashable, Sendable {
    /// Constant speed.
    case linear
    /// Fast start, gentle arrival: `1 − (1 − s)³`.
    case easeOutCubic
    /// Gentle start and arrival (smoothstep): `3s² − 2s³`.
    case easeInOutCubic
    /// A cubic Hermite curve that starts at the given velocity (rows/s) and arrives at rest, so a
    /// move begun mid-gesture continues the gesture's speed without a jump.
    case velocityMatching(initialVelocity: Double)
}

/// A timed move between two offsets along an easing curve.
struct ScrollAnimation: Hashable, Sendable {
    /// The starting offset.
    var from: Double
    /// The final offset.
    var to: Double
    /// When the move starts.
    var startTime: ScrollInstant
    /// How long the move takes, in seconds.
    var duration: Double
    /// The curve.
    var easing: ScrollEasing

    /// Creates a move; a non-positive duration makes it end at once.
    init(from: Double, to: Double, startTime: ScrollInstant, duration: Double, easing: ScrollEasing) {
        self.from = from
        self.to = to
        self.startTime = startTime
        self.duration = max(0, duration)
        self.easing = easing
    }

    /// When the move ends.
    var endTime: ScrollInstant { startTime + duration }

    /// The offset at `time` (`to` from the end on).
    func position(at time: ScrollInstant) -> Double {
        guard duration > 0, time < endTime else { return to }
        let s = max(0, (time - startTime) / duration)
        switch easing {
        case .linear:
            return from + (to - from) * s
        case .easeOutCubic:
            let r = 1 - s
            return from + (to - from) * (1 - r * r * r)
        case .easeInOutCubic:
            return from + (to - from) * s * s * (3 - 2 * s)
        case .velocityMatching(let v0):
            // Hermite basis: h00 = 2s³ − 3s² + 1, h10 = s³ − 2s² + s, h01 = −2s³ + 3s².
            let s2 = s * s, s3 = s2 * s
            return from * (2 * s3 - 3 * s2 + 1) + v0 * duration * (s3 - 2 * s2 + s) + to * (-2 * s3 + 3 * s2)
        }
    }

    /// The velocity at `time`, in rows per second (zero from the end on).
    func velocity(at time: ScrollInstant) -> Double {
        guard duration > 0, time < endTime else { return 0 }
        let s = max(0, (time - startTime) / duration)
        let slope: Double  // d(position)/ds
        switch easing {
        case .linear:
            slope = to - from
        case .easeOutCubic:
            slope = (to - from) * 3 * (1 - s) * (1 - s)
        case .easeInOutCubic:
            slope = (to - from) * 6 * s * (1 - s)
        case .velocityMatching(let v0):
            let s2 = s * s
            slope = from * (6 * s2 - 6 * s) + v0 * duration * (3 * s2 - 4 * s + 1) + to * (-6 * s2 + 6 * s)
        }
        return slope / duration
    }

    /// A duration for a velocity-continuous move that does not overshoot: the Hermite curve is
    /// monotone while `v0·duration/distance` stays within [0, 3], so long moves keep `preferred`
    /// and short, fast ones are shortened (never below `minimum`).
    static func velocityMatchingDuration(distance: Double, initialVelocity v0: Double,
                                                preferred: Double, minimum: Double = 1.0 / 60) -> Double {
        guard distance != 0, v0 * distance > 0 else { return preferred }
        let limit = 3 * abs(distance) / abs(v0)
        return max(minimum, min(preferred, limit))
    }

    /// Moves both ends by `delta` rows (content shifted under the animation).
    mutating func shift(by delta: Double) {
        from += delta
        to += delta
    }
}
