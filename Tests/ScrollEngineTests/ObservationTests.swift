import XCTest
@testable import ScrollEngine

final class ObservationTests: XCTestCase {
    func testGeometryObserverFiresOnlyWhenTheSelectedValueChanges() {
        let model = makeModel()
        var calls: [(Int, Int)] = []
        model.observeGeometry({ $0.drawnOffset }) { calls.append(($0, $1)) }
        var sizeCalls = 0
        model.observeGeometry({ $0.contentSize }) { _, _ in sizeCalls += 1 }
        model.scrollTo(offset: 0.5, animated: false, at: at(1))  // drawn offset still 0
        XCTAssertTrue(calls.isEmpty)
        model.scrollTo(offset: 4, animated: false, at: at(2))
        model.scrollTo(offset: 4, animated: false, at: at(3))
        XCTAssertEqual(calls.map(\.0), [0])
        XCTAssertEqual(calls.map(\.1), [4])
        XCTAssertEqual(sizeCalls, 0)
        model.append(uniformItems(3, first: 1000))
        XCTAssertEqual(sizeCalls, 1)
    }

    func testRemovedObserversAreNotCalled() {
        let model = makeModel()
        var calls = 0
        let token = model.observeGeometry({ $0.contentOffset }) { _, _ in calls += 1 }
        model.scrollTo(offset: 4, animated: false, at: at(1))
        model.removeObserver(token)
        model.scrollTo(offset: 8, animated: false, at: at(2))
        XCTAssertEqual(calls, 1)
    }

    func testPhaseObserverGetsGeometryAndVelocity() {
        let model = makeModel(count: 1000)
        let log = PhaseLog(model)
        model.handle(.press(row: 19), at: at(1))
        for i in 1...10 { model.handle(.drag(row: 19 - i), at: at(1 + 0.01 * Double(i))) }
        model.handle(.release, at: at(1.1))
        let fling = log.changes.last!
        XCTAssertEqual(fling.new, .decelerating)
        XCTAssertEqual(fling.context.velocity, 100, accuracy: 1e-6)
        XCTAssertEqual(fling.context.geometry.contentOffset, 10)
        model.settle()
        XCTAssertEqual(log.changes.last!.context.velocity, 0)
        XCTAssertEqual(log.changes.last!.context.geometry.contentOffset, model.contentOffset)
    }

    func testDebouncedEndFiresAfterTheQuietInterval() {
        let model = makeModel()
        var ended: [Double] = []
        model.onScrollEnded { ended.append($0.contentOffset) }
        model.handle(.press(row: 10), at: at(1))
        model.handle(.drag(row: 7), at: at(1.0))
        model.handle(.drag(row: 4), at: at(1.04))
        model.advance(to: at(1.089))
        XCTAssertTrue(ended.isEmpty)
        model.advance(to: at(1.09))
        XCTAssertEqual(ended, [6])
        model.advance(to: at(5))
        XCTAssertEqual(ended, [6], "fires once per quiet period")
    }

    func testDebounceWaitsForMotionToStop() {
        let model = makeModel()
        var ended = 0
        model.onScrollEnded { _ in ended += 1 }
        model.scrollTo(offset: 40, at: at(1))
        model.advance(to: at(1.1))
        model.advance(to: at(1.299))  // 199 ms without a frame, but the animation ran until 1.25
        XCTAssertEqual(ended, 0)
        model.advance(to: at(1.3))
        XCTAssertEqual(ended, 1)
    }

    /// The talk's pitfall: the debounce fires while the button is held still; the exact end
    /// (the move to idle) comes only with the release.
    func testDebounceCanFireDuringAPauseInAGestureButIdleDoesNot() {
        let model = makeModel()
        var ended = 0, idle = 0
        model.onScrollEnded { _ in ended += 1 }
        model.onIdle { _ in idle += 1 }
        model.handle(.press(row: 10), at: at(1))
        model.handle(.drag(row: 5), at: at(1.05))
        model.advance(to: at(1.5))
        XCTAssertEqual(ended, 1)
        XCTAssertEqual(idle, 0)
        XCTAssertEqual(model.phase, .interacting)
        model.handle(.release, at: at(2))
        XCTAssertEqual(idle, 1)
    }

    func testObserversMayCallBackIntoTheModel() {
        let model = makeModel()
        var order: [String] = []
        model.observePhase { old, new, _ in
            order.append("\(old.rawValue)→\(new.rawValue)")
            if new == .idle && model.contentOffset < 20 { model.scrollTo(offset: 20, animated: false, at: model.now) }
        }
        model.observeGeometry({ $0.contentOffset }) { _, new in order.append("offset \(new)") }
        model.handle(.wheel(notches: 1), at: at(1))
        model.advance(to: at(2))
        XCTAssertEqual(model.contentOffset, 20)
        XCTAssertEqual(order, ["idle→interacting", "offset 3.0", "interacting→idle", "offset 20.0"])
        model._checkInvariants()
    }
}
