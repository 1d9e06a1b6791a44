import XCTest
@testable import ScrollEngine

/// How the wheel feels: a response that grows smoothly with the notch rate, bursts that glide,
/// a glide that carries on when the wheel stops, rests on whole rows, and an end with the last row.
final class WheelFeelTests: XCTestCase {
    /// Rows moved, glide included, by `count` notches `gap` seconds apart.
    private func response(notches count: Int, gap: Double) -> Double {
        let model = makeModel(count: 100_000)
        for i in 0..<count { model.handle(.wheel(notches: 1), at: at(1 + gap * Double(i))) }
        model.settle()
        return model.contentOffset
    }

    func testTheResponseGrowsSmoothlyWithTheNotchRate() {
        let gaps = stride(from: 0.004, through: 0.2, by: 0.004).map { $0 }
        let responses = gaps.map { response(notches: 8, gap: $0) }
        for (i, pair) in zip(responses, responses.dropFirst()).enumerated() {
            XCTAssertGreaterThanOrEqual(pair.0, pair.1 * 0.95, "faster notches move at least as far (\(gaps[i]) s vs \(gaps[i + 1]) s)")
            XCTAssertLessThanOrEqual(pair.0 / pair.1, 1.5, "no step between \(gaps[i]) s and \(gaps[i + 1]) s: \(pair.0) vs \(pair.1)")
        }
        XCTAssertEqual(responses.last, 24, "slow notches are precise steps of 3 rows")
        XCTAssertGreaterThan(responses.first!, 3 * responses.last!, "fast notches accelerate")
        let around50 = (response(notches: 8, gap: 0.048), response(notches: 8, gap: 0.052))
        XCTAssertLessThan(around50.0 / around50.1, 1.2, "48 ms and 52 ms apart feel the same: \(around50)")
    }

    func testNotchesReadAtOnceGlideRatherThanTeleport() {
        let model = makeModel(count: 100_000)
        for _ in 0..<8 { model.handle(.wheel(notches: 1), at: at(1)) }
        XCTAssertLessThanOrEqual(model.contentOffset, 3, "nothing jumps at once")
        var frames: [Double] = []
        var t = 1.0
        while model.nextDeadline != nil, t < 10 {
            t += 1.0 / 60
            model.advance(to: at(t))
            frames.append(model.contentOffset)
        }
        let total = model.contentOffset
        XCTAssertGreaterThan(total, 60)
        let steps = zip(frames, [0] + frames).map { $0 - $1 }
        XCTAssertLessThan(steps.max()!, total / 4, "spread over frames: \(steps.prefix(8))")
        XCTAssertGreaterThan(steps.filter { $0 > 0 }.count, 10)
    }

    func testTheGlideCarriesOnWhenTheWheelStops() {
        let model = makeModel(count: 100_000)
        var samples: [(t: Double, offset: Double)] = []
        var t = 1.0
        var nextNotch = 1.0
        let lastNotch = 1.3
        while t < 1.5 {
            if t >= nextNotch - 1e-9, nextNotch <= lastNotch + 1e-9 {
                model.handle(.wheel(notches: 1), at: at(nextNotch))
                nextNotch += 0.02
            }
            t += 0.005
            model.advance(to: at(t))
            samples.append((t, model.contentOffset))
        }
        func speed(_ from: Double, _ to: Double) -> Double {
            let a = samples.last { $0.t <= from + 1e-9 }!, b = samples.last { $0.t <= to + 1e-9 }!
            return (b.offset - a.offset) / (b.t - a.t)
        }
        let during = speed(lastNotch - 0.06, lastNotch)
        let after = speed(lastNotch + 0.005, lastNotch + 0.065)
        XCTAssertGreaterThan(during, 100)
        XCTAssertGreaterThan(after / during, 0.6, "no braking when the wheel stops: \(during) rows/s then \(after)")
    }

    func testAGlideRestsOnAWholeRowSoTheNextNotchIsThreeRows() {
        for count in [200, 1000, 100_000] {
            let model = makeModel(count: count)
            for i in 0..<4 { model.handle(.wheel(notches: 1), at: at(1 + 0.03 * Double(i))) }
            model.settle()
            XCTAssertEqual(model.contentOffset, model.contentOffset.rounded(), "\(count) items")
            let rest = model.contentOffset
            model.handle(.wheel(notches: 1), at: model.now + 1)
            XCTAssertEqual(model.contentOffset - rest, 3, "\(count) items")
        }
    }

    func testIdleComesWithTheLastRowThatMoves() {
        for v in [30.0, 120.0, -80.0, 400.0] {
            let model = makeModel(count: 100_000)
            model.scrollTo(offset: 5000, animated: false, at: at(0))
            model.handle(.press(row: 10), at: at(1))
            model.handle(.drag(row: 10 - Int(v / 20)), at: at(1.05))
            model.handle(.release, at: at(1.05))
            var lastChange = 1.05, idleAt: Double?
            var drawn = model.geometry.drawnOffset
            var t = 1.05
            while idleAt == nil, t < 10 {
                t += 0.001
                model.advance(to: at(t))
                if model.geometry.drawnOffset != drawn { drawn = model.geometry.drawnOffset; lastChange = t }
                if model.phase == .idle { idleAt = t }
            }
            XCTAssertEqual(idleAt ?? 99, lastChange, accuracy: 0.0011, "velocity \(v): the last row moved at \(lastChange), idle at \(idleAt ?? -1)")
        }
    }
}
