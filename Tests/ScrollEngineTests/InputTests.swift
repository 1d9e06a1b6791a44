import XCTest
@testable import ScrollEngine

/// Every input kind: wheel, press/drag/release, each key, programmatic moves.
final class InputTests: XCTestCase {
    func testOneWheelNotchIsAPreciseStep() {
        let model = makeModel()
        model.handle(.wheel(notches: 1), at: at(1))
        XCTAssertEqual(model.contentOffset, 3)
        XCTAssertFalse(model.isMoving)
        model.handle(.wheel(notches: -1), at: at(1.5))
        XCTAssertEqual(model.contentOffset, 0)
        model.settle()
        XCTAssertEqual(model.phase, .idle)
        XCTAssertEqual(model.contentOffset, 0)
    }

    func testSlowNotchesStayPrecise() {
        let model = makeModel()
        for i in 0..<5 { model.handle(.wheel(notches: 1), at: at(1 + 0.1 * Double(i))) }
        XCTAssertEqual(model.contentOffset, 15)
        XCTAssertEqual(model.phase, .interacting)  // 100 ms apart: one slow burst
        model.settle()
        XCTAssertEqual(model.contentOffset, 15)
    }

    func testAFastBurstAcceleratesAndLeavesMomentum() {
        let model = makeModel(count: 2000)
        var steps: [Double] = []
        var last = model.contentOffset
        for i in 0..<6 {
            model.handle(.wheel(notches: 1), at: at(1 + 0.02 * Double(i)))
            steps.append(model.contentOffset - last)
            last = model.contentOffset
        }
        // Steps grow from the precise 3 rows (plus a little glide between notches).
        XCTAssertEqual(steps[0], 3)
        XCTAssertGreaterThan(steps[5], steps[1])
        XCTAssertTrue(model.isMoving)
        let atBurstEnd = model.contentOffset
        model.advance(to: at(1.1 + 0.12))
        XCTAssertEqual(model.phase, .decelerating)
        model.settle()
        XCTAssertEqual(model.phase, .idle)
        XCTAssertGreaterThan(model.contentOffset, atBurstEnd + 5)
        XCTAssertEqual(model.contentOffset, model.contentOffset.rounded(), "momentum rests on a whole row")
    }

    func testReversingTheWheelStopsTheGlide() {
        let model = makeModel(count: 2000)
        for i in 0..<5 { model.handle(.wheel(notches: 1), at: at(1 + 0.02 * Double(i))) }
        let before = model.contentOffset
        model.handle(.wheel(notches: -1), at: at(1.09))
        XCTAssertFalse(model.isMoving)
        XCTAssertEqual(model.contentOffset, (model.contentOffset).rounded())
        XCTAssertLessThan(model.contentOffset, before + 3)
    }

    func testDragMovesContentWithThePointerAndClamps() {
        let model = makeModel(count: 100)
        model.scrollTo(offset: 40, animated: false, at: at(0))
        model.handle(.press(row: 10), at: at(1))
        model.handle(.drag(row: 4), at: at(1.1))
        XCTAssertEqual(model.contentOffset, 46)  // pointer up six rows: content up six rows
        model.handle(.drag(row: 15), at: at(1.2))
        XCTAssertEqual(model.contentOffset, 35)
        model.handle(.drag(row: 90), at: at(1.3))
        XCTAssertEqual(model.contentOffset, 0)  // no rubber band
        model.handle(.drag(row: 12), at: at(1.4))
        XCTAssertEqual(model.contentOffset, 38)
        model._checkInvariants()
    }

    func testReleaseVelocityComesFromTheLast100ms() {
        let model = makeModel(count: 1000)
        model.handle(.press(row: 19), at: at(1))
        for i in 1...10 { model.handle(.drag(row: 19 - i), at: at(1 + 0.01 * Double(i))) }
        model.handle(.release, at: at(1.1))
        XCTAssertEqual(model.phase, .decelerating)
        XCTAssertEqual(model.velocity, 100, accuracy: 1e-6)  // 10 rows in 100 ms
        let projected = 10 + 100 / model.configuration.decayRate
        model.settle()
        XCTAssertEqual(model.contentOffset, projected.rounded())
    }

    func testDragAndReleaseWithoutAPressAreIgnored() {
        let model = makeModel()
        model.handle(.drag(row: 3), at: at(1))
        model.handle(.release, at: at(1.1))
        XCTAssertEqual(model.phase, .idle)
        XCTAssertEqual(model.contentOffset, 0)
    }

    func testEachKey() {
        let cases: [(ScrollKey, Double)] = [
            (.rowDown, 51), (.rowUp, 49), (.pageDown, 69), (.pageUp, 31), (.top, 0), (.bottom, 180),
        ]
        for (key, expected) in cases {
            let model = makeModel()
            model.scrollTo(offset: 50, animated: false, at: at(0))
            let log = PhaseLog(model)
            model.handle(.key(key), at: at(1))
            // A row from rest is one drawn row: made at once, with no phase to show.
            let oneRow = key == .rowUp || key == .rowDown
            XCTAssertEqual(model.phase, oneRow ? .idle : .animating, "\(key)")
            model.settle()
            XCTAssertEqual(model.contentOffset, expected, "\(key)")
            XCTAssertEqual(log.pairs, oneRow ? [] : ["idle→animating", "animating→idle"], "\(key)")
        }
        // Held, row keys during an animation animate from its destination.
        let model = makeModel()
        model.scrollTo(offset: 50, animated: false, at: at(0))
        model.handle(.key(.pageDown), at: at(1))
        model.handle(.key(.rowDown), at: at(1.05))
        XCTAssertEqual(model.phase, .animating)
        model.settle()
        XCTAssertEqual(model.contentOffset, 70)
    }

    func testRepeatedKeysAccumulateFromTheDestination() {
        let model = makeModel()
        model.handle(.key(.pageDown), at: at(1))
        model.handle(.key(.pageDown), at: at(1.05))
        model.handle(.key(.pageDown), at: at(1.1))
        model.settle()
        XCTAssertEqual(model.contentOffset, 57)
    }

    func testAKeyAtTheBoundDoesNothing() {
        let model = makeModel()
        let log = PhaseLog(model)
        model.handle(.key(.rowUp), at: at(1))
        XCTAssertEqual(model.phase, .idle)
        XCTAssertTrue(log.pairs.isEmpty)
    }

    func testScrollToOffsetAnimatedAndImmediate() {
        let model = makeModel()
        model.scrollTo(offset: 30, at: at(1))
        model.advance(to: at(1.125))
        XCTAssertGreaterThan(model.contentOffset, 15)  // ease-out: past half way at half time
        XCTAssertLessThan(model.contentOffset, 30)
        model.advance(to: at(1.25))
        XCTAssertEqual(model.contentOffset, 30)
        model.scrollTo(offset: 9999, animated: false, at: at(2))
        XCTAssertEqual(model.contentOffset, 180)
        XCTAssertEqual(model.phase, .idle)
    }

    func testScrollToIDWithAlignments() {
        let model = ScrollModel<String>(containerRows: 10, columns: 40,
                                        items: (0..<50).map { ("c\($0)", 3) })
        XCTAssertTrue(model.scrollTo(id: "c20", row: 1, alignment: .top, animated: false, at: at(1)))
        XCTAssertEqual(model.contentOffset, 61)
        XCTAssertEqual(model.anchor, ScrollAnchor(id: "c20", row: 1))
        model.scrollTo(id: "c20", row: 1, alignment: .center, animated: false, at: at(2))
        XCTAssertEqual(model.contentOffset, 57)
        model.scrollTo(id: "c20", row: 2, alignment: .bottom, animated: true, at: at(3))
        model.settle()
        XCTAssertEqual(model.contentOffset, 62 - 9)
        XCTAssertEqual(model.item(atViewportRow: 9), "c20")
        XCTAssertEqual(model.item(atViewportRow: 0), "c17")
        XCTAssertFalse(model.scrollTo(id: "nope", at: at(4)))
    }

    func testImmediateScrollDuringADragRebasesTheDrag() {
        let model = makeModel()
        model.handle(.press(row: 10), at: at(1))
        model.handle(.drag(row: 8), at: at(1.02))
        model.scrollTo(offset: 100, animated: false, at: at(1.03))
        XCTAssertEqual(model.phase, .interacting)
        model.handle(.drag(row: 7), at: at(1.04))
        XCTAssertEqual(model.contentOffset, 101)
    }

    func testTimeNeverRunsBackwards() {
        let model = makeModel()
        model.scrollTo(offset: 30, at: at(1))
        model.advance(to: at(1.1))
        let offset = model.contentOffset
        model.advance(to: at(0.5))
        XCTAssertEqual(model.contentOffset, offset)
        XCTAssertEqual(model.now, at(1.1))
    }

    func testNextDeadline() {
        let model = makeModel()
        XCTAssertNil(model.nextDeadline)
        model.handle(.wheel(notches: 1), at: at(1))
        // The debounced end (50 ms) comes before the burst's quiet end (120 ms).
        XCTAssertEqual(model.nextDeadline!.seconds, 1.05, accuracy: 1e-9)
        model.advance(to: model.nextDeadline!)
        XCTAssertEqual(model.nextDeadline!.seconds, 1.12, accuracy: 1e-9)
        model.advance(to: model.nextDeadline!)
        XCTAssertEqual(model.phase, .idle)
        XCTAssertNil(model.nextDeadline)
        model.scrollTo(offset: 40, at: at(2))
        XCTAssertEqual(model.nextDeadline, at(2))  // moving: wake for every frame
    }
}
