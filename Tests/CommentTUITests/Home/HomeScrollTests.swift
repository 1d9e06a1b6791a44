import XCTest
import ScrollEngine
@testable import CommentTUI

/// Home scrolls with the feed's engine: the wheel, drags, momentum and phases, on the shared
/// clock moved by the test (a second, and a minute, between inputs as a person pauses).
final class HomeScrollTests: XCTestCase {
    private typealias F = HomeFixture
    private let clock = AppClock(now: ScrollInstant(seconds: 10))

    /// 40 threads in a 40×11 frame: 10 list rows, 5 threads.
    private func list() -> HomeList { F.list(F.numbered(40), clock: clock) }

    private func at(_ seconds: Double) { clock.move(to: clock.now + seconds) }

    /// Frames at 60 a second until the list rests (at most `limit` seconds); how long it moved.
    @discardableResult
    private func settle(_ list: HomeList, limit: Double = 5) -> Double {
        let start = clock.now
        while list.nextDeadline != nil, clock.now - start < limit {
            at(1.0 / 60)
            list.advance()
        }
        return clock.now - start
    }

    private func wheel(_ list: HomeList, _ button: MouseButton) -> HomeEffect? {
        list.handle(MouseEvent(button, .press, column: 5, row: 5))
    }

    private func assertSelectionOnScreen(_ list: HomeList, file: StaticString = #filePath, line: UInt = #line) {
        guard let row = list.selectedRow else { return XCTFail("no selection", file: file, line: line) }
        let top = list.model.geometry.drawnOffset
        XCTAssertGreaterThanOrEqual(row * HomeList.rowHeight, top, "selection above the screen", file: file, line: line)
        XCTAssertLessThanOrEqual((row + 1) * HomeList.rowHeight, top + list.listRect.height, "selection below the screen", file: file, line: line)
    }

    func testAWheelBurstGlidesThenRestsAndTheSelectionStaysOnScreen() {
        let list = list()
        for _ in 0..<4 {
            XCTAssertNil(wheel(list, .wheelDown))
            at(0.02)
        }
        XCTAssertEqual(list.model.phase, .interacting)
        assertSelectionOnScreen(list)
        let glide = settle(list)
        XCTAssertEqual(list.model.phase, .idle)
        XCTAssertGreaterThan(glide, 0.1, "a brisk burst glides on")
        XCTAssertGreaterThan(list.model.contentOffset, 8, "further than four slow notches")
        XCTAssertGreaterThan(list.selectedRow ?? 0, 0, "the selection came along, onto the screen")
        assertSelectionOnScreen(list)
    }

    func testAfterAPauseAWheelNotchStartsAtItsOwnTime() {
        let list = list()
        _ = wheel(list, .wheelDown)
        settle(list)
        let rested = list.model.contentOffset
        at(1)
        list.advance()
        XCTAssertEqual(list.model.contentOffset, rested, "nothing moves by itself")
        XCTAssertNil(list.nextDeadline, "no timer while at rest: the loop sleeps")
        at(60)
        _ = wheel(list, .wheelUp)
        XCTAssertEqual(list.model.phase, .interacting, "the notch acts at the minute's end, not at the last frame's time")
        XCTAssertLessThan(list.model.contentOffset, rested)
        settle(list)
        XCTAssertEqual(list.model.phase, .idle)
        assertSelectionOnScreen(list)
    }

    func testAFlingGlidesWithMomentumAndAPressStopsItWithoutOpening() {
        let list = list()
        // A drag up over six rows in 60 ms, released while moving.
        XCTAssertNil(list.handle(MouseEvent(.left, .press, column: 5, row: 9)))
        XCTAssertEqual(list.model.phase, .tracking)
        for (n, row) in [8, 6, 5, 3].enumerated() {
            at(0.015)
            XCTAssertNil(list.handle(MouseEvent(.left, .drag, column: 5, row: row)), "step \(n)")
        }
        XCTAssertEqual(list.model.phase, .interacting)
        XCTAssertNil(list.handle(MouseEvent(.left, .release, column: 5, row: 3)), "a drag is no click")
        XCTAssertEqual(list.model.phase, .decelerating)
        at(0.05)
        list.advance()
        XCTAssertGreaterThan(list.model.contentOffset, 6, "it glides on past where the pointer left it")
        assertSelectionOnScreen(list)
        // A press while it glides stops it, and is no click.
        XCTAssertNil(list.handle(MouseEvent(.left, .press, column: 5, row: 4)))
        XCTAssertNil(list.handle(MouseEvent(.left, .release, column: 5, row: 4)))
        XCTAssertEqual(list.model.phase, .idle)
        let stopped = list.model.contentOffset
        at(1)
        list.advance()
        XCTAssertEqual(list.model.contentOffset, stopped)
    }

    func testAClickOnARowSelectsAndOpensIt() {
        let list = list()
        at(1)
        // Screen row 5 is list row 4: the third thread's name line.
        XCTAssertNil(list.handle(MouseEvent(.left, .press, column: 5, row: 5)))
        XCTAssertEqual(list.handle(MouseEvent(.left, .release, column: 5, row: 5)), .open(F.key("Room 02")))
        XCTAssertEqual(list.selected?.name, "Room 02")
        at(1)
        // On the preview line too; a press on the header is nobody's.
        _ = list.handle(MouseEvent(.left, .press, column: 5, row: 8))
        XCTAssertEqual(list.handle(MouseEvent(.left, .release, column: 5, row: 8)), .open(F.key("Room 03")))
        XCTAssertNil(list.handle(MouseEvent(.left, .press, column: 5, row: 0)))
        XCTAssertNil(list.handle(MouseEvent(.left, .release, column: 5, row: 0)))
    }

    func testKeysAfterScrollingBringTheSelectionBackIntoView() {
        let list = list()
        for _ in 0..<3 { _ = wheel(list, .wheelDown); at(1) }
        settle(list)
        let selected = list.selectedRow ?? 0
        XCTAssertGreaterThan(selected, 0, "the wheel carried the selection onto the screen")
        list.press(KeyPress(.down))
        XCTAssertEqual(list.selectedRow, selected + 1)
        assertSelectionOnScreen(list)
    }

    func testAResizeKeepsTheSelectionWhole() {
        let list = list()
        for _ in 0..<4 { list.press(KeyPress(.down)) }
        list.place(in: CellRect(column: 0, row: 0, width: 30, height: 5))
        XCTAssertEqual(list.selectedRow, 4)
        assertSelectionOnScreen(list)
    }
}
