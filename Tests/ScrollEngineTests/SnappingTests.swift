import XCTest
@testable import ScrollEngine

final class SnappingTests: XCTestCase {
    func testHeaderCollapseProgressAndTargets() {
        let header = HeaderCollapse(distance: 8)
        XCTAssertEqual([-3, 0, 2, 4, 8, 20].map(header.progress(offset:)), [0, 0, 0.25, 0.5, 1, 1])
        XCTAssertEqual(header.snapTarget(projectedOffset: 3), 0)
        XCTAssertEqual(header.snapTarget(projectedOffset: 4), 8)
        XCTAssertEqual(header.snapTarget(projectedOffset: 7.5), 8)
        XCTAssertEqual(header.snapTarget(projectedOffset: 30), 30, "past the header: rest anywhere")
        XCTAssertEqual(header.snapTarget(projectedOffset: 0), 0)
    }

    func testProjectedSnapPicksTheTargetNearestTheProjectedEnd() {
        let model = makeModel(count: 1000) { $0.snapping = ScrollSnapping(targets: .offsets([0, 20, 40, 60, 80, 100])) }
        let log = PhaseLog(model)
        model.handle(.press(row: 19), at: at(1))
        for i in 1...10 { model.handle(.drag(row: 19 - i), at: at(1 + 0.01 * Double(i))) }
        model.handle(.release, at: at(1.1))
        // Offset 10 at 100 rows/s projects to 26.7: the nearest target is 20, in one motion.
        XCTAssertEqual(model.phase, .decelerating)
        XCTAssertEqual(model.velocity, 100, accuracy: 1e-6, "the snap starts at the release velocity")
        model.run(until: at(1.11))
        XCTAssertGreaterThan(model.velocity, 50)
        model.settle()
        XCTAssertEqual(model.contentOffset, 20)
        XCTAssertEqual(log.pairs, ["idle→tracking", "tracking→interacting", "interacting→decelerating", "decelerating→idle"])
    }

    func testAJumpThatRestsBetweenTargetsGoesOnToTheNearer() {
        let model = makeModel(count: 1000) { $0.snapping = ScrollSnapping(targets: .headerCollapse(HeaderCollapse(distance: 10))) }
        model.scrollTo(offset: 50, animated: false, at: at(0))
        let log = PhaseLog(model)
        model.scrollTo(offset: 7, animated: false, at: at(1))  // a far jump (a scrollbar move) part-way up the header
        XCTAssertEqual(model.phase, .animating)
        model.settle()
        XCTAssertEqual(model.contentOffset, 10)
        XCTAssertEqual(log.pairs, ["idle→animating", "animating→idle"], "it ends in a phase change to idle")
        // Held (a scrollbar press), it waits for the release.
        model.handle(.press(row: 5), at: model.now)
        model.scrollTo(offset: 3, animated: false, at: model.now + 0.1)
        model.run(until: model.now + 1)
        XCTAssertEqual(model.contentOffset, 3)
        model.handle(.release, at: model.now)
        model.settle()
        XCTAssertEqual(model.contentOffset, 0)
        XCTAssertEqual(model.phase, .idle)
    }

    func testProjectedSnapToItemBoundaries() {
        let model = ScrollModel<Int>(containerRows: 10, columns: 40, items: makeItems([5, 7, 4, 9, 6, 8, 5, 5, 5, 5]))
        model.configuration.snapping = ScrollSnapping(targets: .itemBoundaries)
        model.handle(.wheel(notches: 1), at: at(1))  // offset 3: nearer item 1's start (5) than 0
        model.settle()
        XCTAssertEqual(model.contentOffset, 5)
        XCTAssertEqual(model.anchor, ScrollAnchor(id: 1, row: 0))
    }

    func testProjectedSnapWithTheHeaderCollapse() {
        let model = makeModel { $0.snapping = ScrollSnapping(targets: .headerCollapse(HeaderCollapse(distance: 8))) }
        // Drag by `rows`, hold still, release: the projected end is where the drag stopped.
        func dragAndHold(_ rows: Int, from t: Double) {
            model.handle(.press(row: 19), at: at(t))
            model.handle(.drag(row: 19 - rows), at: at(t + 0.02))
            model.handle(.release, at: at(t + 0.5))
            model.settle()
        }
        dragAndHold(3, from: 1)  // progress 0.375: back to expanded
        XCTAssertEqual(model.contentOffset, 0)
        dragAndHold(6, from: 5)  // progress 0.75: collapse
        XCTAssertEqual(model.contentOffset, 8)
        dragAndHold(6, from: 9)  // 14: past the header, stays
        XCTAssertEqual(model.contentOffset, 14)
    }

    func testKeysThatWouldStopInTheCollapseGoOnToTheEndTheyHeadFor() {
        let model = makeModel { $0.snapping = ScrollSnapping(targets: .headerCollapse(HeaderCollapse(distance: 8))) }
        let snaps = SnapLog(model)
        model.handle(.key(.rowDown), at: at(1))
        model.settle()
        XCTAssertEqual(model.contentOffset, 8, "one row down from expanded collapses the header")
        model.handle(.key(.rowDown), at: at(3))
        model.settle()
        XCTAssertEqual(model.contentOffset, 9, "past the header, rows are rows")
        model.handle(.key(.rowUp), at: at(5))
        model.settle()
        XCTAssertEqual(model.contentOffset, 8)
        model.handle(.key(.rowUp), at: at(7))
        model.settle()
        XCTAssertEqual(model.contentOffset, 0, "and one row up from collapsed expands it")
        XCTAssertTrue(snaps.moves.isEmpty, "keys aim at the end directly: no snap afterwards")
    }

    func testSnapObserversHearEveryProjectedSnap() {
        let model = makeModel { $0.snapping = ScrollSnapping(targets: .headerCollapse(HeaderCollapse(distance: 8))) }
        let snaps = SnapLog(model)
        model.handle(.press(row: 19), at: at(1))
        model.handle(.drag(row: 13), at: at(1.02))
        model.handle(.release, at: at(1.5))
        model.settle()
        XCTAssertEqual(snaps.moves.count, 1)
        XCTAssertEqual(snaps.moves.first?.from ?? -1, 6, accuracy: 1e-9)
        XCTAssertEqual(snaps.moves.first?.to, 8)
    }

    func testAfterDebounceSnapAnimatesOnceScrollingHasStopped() {
        let model = makeModel {
            $0.snapping = ScrollSnapping(targets: .headerCollapse(HeaderCollapse(distance: 8)), mode: .afterDebounce)
            $0.wheelStep = 6
        }
        let log = PhaseLog(model)
        var ended = 0
        model.onScrollEnded { _ in ended += 1 }
        model.handle(.wheel(notches: 1), at: at(1))
        model.advance(to: at(1.05))  // the debounce fires before the burst's quiet end
        XCTAssertEqual(ended, 1)
        XCTAssertEqual(model.phase, .animating, "the snap starts 50 ms after the notch, not at the burst's quiet end (120 ms)")
        model.advance(to: at(1.05 + 1.0 / 60))
        XCTAssertEqual(model.geometry.drawnOffset, 7, "and shows at once")
        model.settle()
        XCTAssertEqual(model.contentOffset, 8)
        XCTAssertEqual(log.pairs, ["idle→interacting", "interacting→idle", "idle→animating", "animating→idle"])
    }

    func testAOneRowSnapShowsInTheNextFrame() {
        let model = makeModel { $0.snapping = ScrollSnapping(targets: .headerCollapse(HeaderCollapse(distance: 8))) }
        model.handle(.press(row: 10), at: at(1))
        model.handle(.drag(row: 3), at: at(1.5))
        model.handle(.release, at: at(1.6))  // offset 7, at rest: a one-row snap to 8
        XCTAssertEqual(model.phase, .decelerating)
        model.advance(to: at(1.6 + 1.0 / 60))
        XCTAssertEqual(model.geometry.drawnOffset, 8)
        model.settle()
        XCTAssertEqual(model.phase, .idle)
    }

    func testAfterDebounceSnapAfterARestingPause() {
        let model = makeModel { $0.snapping = ScrollSnapping(targets: .offsets([0, 10]), mode: .afterDebounce) }
        model.scrollTo(offset: 7, animated: false, at: at(1))
        XCTAssertEqual(model.phase, .idle)
        model.advance(to: at(1.05))
        XCTAssertEqual(model.phase, .animating)
        model.settle()
        XCTAssertEqual(model.contentOffset, 10)
    }

    func testAfterDebounceDuringAHeldDragWaitsForTheRelease() {
        let model = makeModel { $0.snapping = ScrollSnapping(targets: .offsets([0, 10]), mode: .afterDebounce) }
        model.handle(.press(row: 10), at: at(1))
        model.handle(.drag(row: 4), at: at(1.02))
        model.advance(to: at(2))  // debounce fired while held: no snap yet
        XCTAssertEqual(model.contentOffset, 6)
        XCTAssertEqual(model.phase, .interacting)
        model.handle(.release, at: at(3))
        XCTAssertEqual(model.phase, .animating)
        model.settle()
        XCTAssertEqual(model.contentOffset, 10)
    }
}

/// Records the snaps a model announces.
final class SnapLog {
    var moves: [(from: Double, to: Double)] = []
    init(_ model: ScrollModel<Int>) {
        model.onSnap { [unowned self] from, to in moves.append((from, to)) }
    }
}
