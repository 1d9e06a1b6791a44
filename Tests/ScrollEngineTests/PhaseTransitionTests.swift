import XCTest
@testable import ScrollEngine

/// One named test per legal phase transition (see docs/ScrollEngine.md).
final class PhaseTransitionTests: XCTestCase {
    var model: ScrollModel<Int>!
    var log: PhaseLog!

    override func setUp() {
        model = makeModel(count: 400)
        model.scrollTo(offset: 100, animated: false, at: at(0))
        log = PhaseLog(model)
    }

    private func step(_ input: ScrollInput, _ t: Double) {
        model.handle(input, at: at(t))
        model._checkInvariants()
    }

    private func assertLast(_ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(log.pairs.last, expected, file: file, line: line)
        XCTAssertEqual(model.phase.rawValue, String(expected.split(separator: "→").last!), file: file, line: line)
    }

    // Ways into each phase.
    private func track(_ t: Double = 1) { step(.press(row: 10), t) }
    private func drag(_ t: Double = 1) {
        track(t)
        step(.drag(row: 8), t + 0.02)
        step(.drag(row: 4), t + 0.04)
    }
    private func decelerate(_ t: Double = 1) {
        drag(t)
        step(.release, t + 0.05)
        XCTAssertEqual(model.phase, .decelerating)
    }
    private func animate(_ t: Double = 1) {
        model.scrollTo(offset: 200, at: at(t))
        XCTAssertEqual(model.phase, .animating)
    }

    func testTheTableRejectsEverythingElse() {
        let legal: Set<String> = [
            "idle→tracking", "idle→interacting", "idle→animating",
            "tracking→idle", "tracking→interacting", "tracking→decelerating", "tracking→animating",
            "interacting→idle", "interacting→tracking", "interacting→decelerating", "interacting→animating",
            "decelerating→idle", "decelerating→tracking", "decelerating→interacting", "decelerating→animating",
            "animating→idle", "animating→tracking", "animating→interacting",
        ]
        for old in ScrollPhase.allCases {
            for new in ScrollPhase.allCases {
                XCTAssertEqual(ScrollPhase.isLegalTransition(from: old, to: new), legal.contains("\(old.rawValue)→\(new.rawValue)"),
                               "\(old) → \(new)")
            }
        }
    }

    func testIdleToTrackingOnPress() {
        track()
        assertLast("idle→tracking")
    }

    func testIdleToInteractingOnWheel() {
        step(.wheel(notches: 1), 1)
        assertLast("idle→interacting")
    }

    func testIdleToAnimatingOnScrollTo() {
        animate()
        assertLast("idle→animating")
    }

    func testTrackingToIdleOnReleaseWithoutMotion() {
        track()
        step(.release, 1.3)
        assertLast("tracking→idle")
        XCTAssertEqual(model.contentOffset, 100)
    }

    func testTrackingToInteractingOnDrag() {
        track()
        step(.drag(row: 10), 1.01)  // same row: still tracking
        XCTAssertEqual(model.phase, .tracking)
        step(.drag(row: 9), 1.02)
        assertLast("tracking→interacting")
        XCTAssertEqual(model.contentOffset, 101)
    }

    func testTrackingToDeceleratingOnReleaseOffASnapTarget() {
        model.configuration.snapping = ScrollSnapping(targets: .offsets([0, 90, 110]))
        track()
        // Moved off the targets while held (a jump at rest would snap at once).
        model.scrollTo(offset: 97, animated: false, at: at(1.05))
        step(.release, 1.1)
        assertLast("tracking→decelerating")
        model.settle()
        XCTAssertEqual(model.contentOffset, 90)
    }

    func testTrackingToAnimatingOnScrollTo() {
        track()
        animate(1.1)
        assertLast("tracking→animating")
    }

    func testInteractingToIdleOnSlowRelease() {
        drag()
        step(.release, 1.5)  // held still for longer than the velocity window
        assertLast("interacting→idle")
    }

    func testInteractingToIdleWhenAWheelNotchGoesQuiet() {
        step(.wheel(notches: 1), 1)
        model.advance(to: at(1.119))
        assertLast("idle→interacting")
        model.advance(to: at(1.121))
        assertLast("interacting→idle")
    }

    func testInteractingToTrackingOnPressDuringAWheelBurst() {
        step(.wheel(notches: 1), 1)
        track(1.05)
        assertLast("interacting→tracking")
    }

    func testInteractingToDeceleratingOnFling() {
        decelerate()
        assertLast("interacting→decelerating")
        XCTAssertGreaterThan(model.velocity, 0)
    }

    func testInteractingToDeceleratingWhenAFastWheelBurstGoesQuiet() {
        for i in 0..<5 { step(.wheel(notches: 1), 1 + 0.02 * Double(i)) }
        model.advance(to: at(1.08 + 0.12))
        assertLast("interacting→decelerating")
    }

    func testInteractingToAnimatingOnKey() {
        drag()
        step(.key(.pageDown), 1.1)
        assertLast("interacting→animating")
        step(.drag(row: 0), 1.12)  // the cancelled drag no longer moves the content
        step(.release, 1.13)
        XCTAssertEqual(model.phase, .animating)
    }

    func testDeceleratingToIdleWhenMomentumEnds() {
        decelerate()
        model.settle()
        assertLast("decelerating→idle")
    }

    func testDeceleratingToTrackingOnPress() {
        decelerate()
        model.advance(to: at(1.1))
        track(1.1)
        assertLast("decelerating→tracking")
        let stopped = model.contentOffset
        model.advance(to: at(2))
        XCTAssertEqual(model.contentOffset, stopped)
    }

    func testDeceleratingToInteractingOnWheel() {
        decelerate()
        step(.wheel(notches: -1), 1.1)
        assertLast("decelerating→interacting")
    }

    func testDeceleratingToAnimatingOnScrollTo() {
        decelerate()
        animate(1.1)
        assertLast("decelerating→animating")
    }

    func testAnimatingToIdleWhenTheAnimationEnds() {
        animate()
        model.advance(to: at(1.25))
        assertLast("animating→idle")
        XCTAssertEqual(model.contentOffset, 200)
    }

    func testAnimatingToTrackingOnPress() {
        animate()
        track(1.1)
        assertLast("animating→tracking")
    }

    func testAnimatingToInteractingOnWheel() {
        animate()
        step(.wheel(notches: 1), 1.1)
        assertLast("animating→interacting")
    }
}
