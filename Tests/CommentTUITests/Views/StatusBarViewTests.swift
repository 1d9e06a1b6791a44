import XCTest
import CommentTUITestSupport
@testable import CommentTUI

final class StatusBarViewTests: XCTestCase {
    private let legend: [Character: CellStyle] = ["r": Theme.statusBar, "E": Theme.statusError]

    private func bar(newCount: Int = 0, message: String? = nil, isError: Bool = false) -> StatusBarView {
        StatusBarView(handle: "ann", threadLabel: "t", phase: "idle", position: (1, 3),
                      newCount: newCount, message: message, isError: isError)
    }

    private func draw(_ view: StatusBarView, columns: Int) -> CellBuffer {
        var buffer = CellBuffer(columns: columns, rows: 2)
        view.draw(into: &buffer, row: 1, width: columns)
        return buffer
    }

    func testFillsItsRowInTheBarStyle() {
        assertScreen(draw(bar(), columns: 34), [
            "", "",
            " @ann · t · idle · comment 1/3    ",
            "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr",
        ], legend: legend)
    }

    func testCountsNewComments() {
        assertScreen(draw(bar(newCount: 2), columns: 38), [
            "", "",
            " @ann · t · idle · comment 1/3 · 2 new",
            "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr",
        ], legend: legend)
    }

    func testAMessageFollowsInTheBarStyle() {
        assertScreen(draw(bar(message: "posted"), columns: 40), [
            "", "",
            " @ann · t · idle · comment 1/3 · posted ",
            "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr",
        ], legend: legend)
    }

    func testAnErrorIsStyledAsOneAndOnlyTheMessage() {
        assertScreen(draw(bar(message: "not sent", isError: true), columns: 42), [
            "", "",
            " @ann · t · idle · comment 1/3 · not sent ",
            "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrEEEEEEEEr",
        ], legend: legend)
    }

    func testANarrowBarIsCutAtTheEdge() {
        assertScreen(draw(bar(message: "posted"), columns: 16), [
            "", "",
            " @ann · t · idle",
            "rrrrrrrrrrrrrrrr",
        ], legend: legend)
    }
}
