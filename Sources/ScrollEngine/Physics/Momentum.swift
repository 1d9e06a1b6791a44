import Glibc

/// Exponentially decaying motion: `v(t) = v0·e^(−k·t)`, `x(t) = x0 + v0/k·(1 − e^(−k·t))`.
///
/// The motion rests at the projected end `x0 + v0/k` (the limit of `x(t)`), reached when less
/// than a row is left (or the speed falls below a stop threshold); it stops earlier, dead, at a
/// bound (no rubber band).
struct Momentum: Hashable, Sendable {
    /// Where the motion starts, in rows.
    let start: Double
    /// The initial velocity, in rows per second.
    let initialVelocity: Double
    /// The decay rate k, per second.
    let decayRate: Double
    /// When the motion starts.
    let startTime: ScrollInstant
    /// When the motion ends (at rest or at a bound).
    let endTime: ScrollInstant
    /// Where the motion ends.
    let endPosition: Double

    /// Creates a motion from `start` at `velocity` rows/s decaying at `decayRate`, ending when less
    /// than a row is left, when the speed drops below `stopSpeed`, or at the edge of `bounds`.
    ///
    /// With `restOnWholeRow`, the decay rate is adjusted slightly so the projected end is a whole
    /// row (the initial velocity is kept, so the motion stays velocity-continuous).
    init(start: Double, velocity: Double, decayRate: Double, stopSpeed: Double,
                bounds: ClosedRange<Double>, at time: ScrollInstant, restOnWholeRow: Bool = true) {
        precondition(decayRate > 0 && stopSpeed > 0, "decay rate and stop speed must be positive")
        self.start = start
        self.startTime = time
        var k = decayRate
        var v0 = velocity
        if restOnWholeRow {
            let distance = (start + velocity / decayRate).rounded() - start
            if distance * velocity > 0 {
                k = velocity / distance
            } else {
                v0 = 0  // the rounded end is here: nothing to move
            }
        }
        self.decayRate = k
        self.initialVelocity = v0
        let projected = start + v0 / k
        guard abs(v0) > stopSpeed else {
            endTime = time
            endPosition = min(max(start, bounds.lowerBound), bounds.upperBound)
            return
        }
        // It rests once slower than `stopSpeed`, or once less than a row is left: the last
        // drawn row then changes at the end itself, so nothing lingers after the view stops.
        let restDuration = min(log(abs(v0) / stopSpeed), max(0, log(abs(v0) / k))) / k
        let bound = v0 > 0 ? bounds.upperBound : bounds.lowerBound
        if (v0 > 0 && projected > bound) || (v0 < 0 && projected < bound) {
            // Solve x(t) = bound: 1 − e^(−k·t) = (bound − x0)·k / v0.
            let fraction = (bound - start) * k / v0
            let hit = fraction <= 0 ? 0 : -log(1 - fraction) / k
            endTime = time + min(hit, restDuration)
            endPosition = bound
        } else {
            endTime = time + restDuration
            endPosition = projected
        }
    }

    /// The closed-form resting place `x0 + v0/k`, ignoring bounds.
    var projectedEnd: Double { start + initialVelocity / decayRate }

    /// The position at `time` (the end position from `endTime` on).
    func position(at time: ScrollInstant) -> Double {
        guard time < endTime else { return endPosition }
        let t = max(0, time - startTime)
        return start + initialVelocity / decayRate * (1 - exp(-decayRate * t))
    }

    /// The velocity at `time` (zero from `endTime` on).
    func velocity(at time: ScrollInstant) -> Double {
        guard time < endTime else { return 0 }
        let t = max(0, time - startTime)
        return initialVelocity * exp(-decayRate * t)
    }

    /// The resting place of a motion with this decay: `position + velocity / decayRate`.
    static func projectedEnd(position: Double, velocity: Double, decayRate: Double) -> Double {
        position + velocity / decayRate
    }
}
