import XCTest
@testable import ScrollEngine

final class PhysicsTests: XCTestCase {
    /// A fine-step simulation of dv/dt = −k·v comes to rest where the closed form says.
    func testMomentumClosedFormMatchesSimulation() {
        for (x0, v0) in [(10.0, 120.0), (500.0, -80.0), (0.0, 37.5)] {
            let m = Momentum(start: x0, velocity: v0, decayRate: 6, stopSpeed: 0.5, bounds: -1e9...1e9,
                             at: .zero, restOnWholeRow: false)
            XCTAssertEqual(m.projectedEnd, x0 + v0 / 6, accuracy: 1e-12)
            var x = x0, v = v0, t = 0.0, steps = 0, checks = 0
            let dt = 1e-5
            // It rests once less than a row is left (|v|/k < 1): the last row moves at the end.
            while abs(v) / 6 > 1 {
                steps += 1
                // Exact per-step decay keeps the simulation free of Euler drift in v.
                let next = v * exp(-6 * dt)
                x += (v - next) / 6
                v = next
                t += dt
                if steps % 2_000 == 0 {
                    checks += 1
                    XCTAssertEqual(m.position(at: at(t)), x, accuracy: 1e-6)
                    XCTAssertEqual(m.velocity(at: at(t)), v, accuracy: 1e-6)
                }
            }
            XCTAssertGreaterThan(checks, 10)
            XCTAssertEqual(m.endTime.seconds, t, accuracy: 1e-4)
            // At rest: the closed-form end, less than the one row the end skips away.
            XCTAssertEqual(m.endPosition, m.projectedEnd)
            XCTAssertEqual(x, m.projectedEnd, accuracy: 1 + 1e-6)
        }
    }

    func testEulerSimulationConvergesToProjectedEnd() {
        var x = 0.0, v = 90.0
        let k = 6.0, dt = 1e-4
        for _ in 0..<Int(5 / dt) {
            x += v * dt
            v -= k * v * dt
        }
        XCTAssertEqual(x, Momentum.projectedEnd(position: 0, velocity: 90, decayRate: k), accuracy: 0.01)
    }

    func testMomentumRestsOnAWholeRowKeepingItsInitialVelocity() {
        let m = Momentum(start: 3.25, velocity: 50, decayRate: 6, stopSpeed: 0.5, bounds: 0...1000, at: at(1))
        XCTAssertEqual(m.initialVelocity, 50)
        XCTAssertEqual(m.endPosition, (3.25 + 50.0 / 6).rounded())
        XCTAssertEqual(m.projectedEnd, m.endPosition, accuracy: 1e-9)
        XCTAssertEqual(m.velocity(at: at(1)), 50, accuracy: 1e-9)
    }

    func testMomentumStopsDeadAtTheBound() {
        let m = Momentum(start: 90, velocity: 120, decayRate: 6, stopSpeed: 0.5, bounds: 0...100, at: .zero)
        XCTAssertEqual(m.endPosition, 100)
        // Solving x(t) = 100 in closed form.
        let hit = -log(1 - 10.0 * m.decayRate / 120) / m.decayRate
        XCTAssertEqual(m.endTime.seconds, hit, accuracy: 1e-9)
        XCTAssertLessThan(m.position(at: at(hit * 0.99)), 100)
        XCTAssertEqual(m.position(at: at(hit + 1)), 100)
        XCTAssertEqual(m.velocity(at: at(hit)), 0)
    }

    func testTinyVelocityMakesNoMotion() {
        let m = Momentum(start: 5, velocity: 0.2, decayRate: 6, stopSpeed: 0.5, bounds: 0...100, at: at(2))
        XCTAssertEqual(m.endTime, at(2))
        XCTAssertEqual(m.endPosition, 5)
    }

    func testEasingsRunFromStartToEnd() {
        for easing in [ScrollEasing.linear, .easeOutCubic, .easeInOutCubic, .velocityMatching(initialVelocity: 40)] {
            let a = ScrollAnimation(from: 10, to: 30, startTime: at(1), duration: 0.25, easing: easing)
            XCTAssertEqual(a.position(at: at(1)), 10, accuracy: 1e-9, "\(easing)")
            XCTAssertEqual(a.position(at: at(1.25)), 30, accuracy: 1e-9, "\(easing)")
            XCTAssertEqual(a.position(at: at(9)), 30, "\(easing)")
            // The velocity is the derivative of the position.
            let t = at(1.1), h = 1e-6
            let numeric = (a.position(at: t + h) - a.position(at: t + (-h))) / (2 * h)
            XCTAssertEqual(a.velocity(at: t), numeric, accuracy: 1e-3, "\(easing)")
            var last = 10.0
            for i in 0...100 {
                let p = a.position(at: at(1 + 0.25 * Double(i) / 100))
                XCTAssertGreaterThanOrEqual(p, last - 1e-9, "\(easing) is not monotone")
                last = p
            }
        }
    }

    func testVelocityMatchingStartsAtTheGivenVelocityAndArrivesAtRest() {
        let a = ScrollAnimation(from: 0, to: 12, startTime: .zero, duration: 0.3, easing: .velocityMatching(initialVelocity: 70))
        XCTAssertEqual(a.velocity(at: .zero), 70, accuracy: 1e-9)
        XCTAssertEqual(a.velocity(at: at(0.3 - 1e-9)), 0, accuracy: 1e-3)
    }

    func testVelocityMatchingDurationPreventsOvershoot() {
        let d = ScrollAnimation.velocityMatchingDuration(distance: 5, initialVelocity: 300, preferred: 0.3)
        XCTAssertEqual(d, 3 * 5 / 300.0, accuracy: 1e-12)
        let a = ScrollAnimation(from: 0, to: 5, startTime: .zero, duration: d, easing: .velocityMatching(initialVelocity: 300))
        for i in 0...200 { XCTAssertLessThanOrEqual(a.position(at: at(d * Double(i) / 200)), 5 + 1e-9) }
        XCTAssertEqual(ScrollAnimation.velocityMatchingDuration(distance: 50, initialVelocity: 10, preferred: 0.3), 0.3)
    }

    func testDragVelocityUsesTheLastWindow() {
        var tracker = DragVelocityTracker(window: 0.1)
        tracker.add(offset: 0, at: at(0))
        tracker.add(offset: 10, at: at(0.05))
        XCTAssertEqual(tracker.velocity(at: at(0.05)), 200, accuracy: 1e-9)  // counted from the press
        tracker.add(offset: 20, at: at(0.2))
        tracker.add(offset: 30, at: at(0.25))
        // Window [0.15, 0.25]: the offset at 0.15 interpolates to 16.67.
        XCTAssertEqual(tracker.velocity(at: at(0.25)), (30 - (10 + 10 * (0.1 / 0.15))) / 0.1, accuracy: 1e-9)
        // A pause longer than the window before release means no fling.
        XCTAssertEqual(tracker.velocity(at: at(0.5)), 0)
    }
}
