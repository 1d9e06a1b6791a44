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

    func testAVeryNarrowBarKeepsTheCountAndTheMessage() {
        assertScreen(draw(bar(message: "posted"), columns: 16), [
            "", "",
            " 1/3 · posted   ",
            "rrrrrrrrrrrrrrrr",
        ], legend: legend)
    }

    /// The demo's bar, as wide as the row is.
    private func demoBar(message: String? = nil, isError: Bool = false) -> StatusBarView {
        StatusBarView(handle: "tatiana", threadLabel: "release-planning.jsonl", phase: "decelerating", position: (2031, 2031),
                      newCount: 3, message: message, isError: isError, typing: "marco is typing…")
    }

    /// Narrower and narrower, the bar gives up whole parts, least important first; the count is never cut.
    func testANarrowingBarGivesUpWholePartsAndNeverCutsTheCount() {
        let rows = [90, 80, 70, 60, 50, 40, 30, 20].map { draw(demoBar(), columns: $0).trimmedLines[1] }
        XCTAssertEqual(rows, [
            " @tatiana · release-plannin… · decelerating · comment 2031/2031 · 3 new · marco is typing…",
            " release… · decelerating · comment 2031/2031 · 3 new · marco is typing…",
            " release… · comment 2031/2031 · 3 new · marco is typing…",
            " release… · comment 2031/2031 · 3 new · marco is typing…",
            " comment 2031/2031 · 3 new · marco is typing…",
            " comment 2031/2031 · 3 new",
            " comment 2031/2031 · 3 new",
            " 2031/2031 · 3 new",
        ])
    }

    /// A message keeps its place after the count; only once nothing else can go is it cut, with `…`.
    func testAMessageIsCutWithAnEllipsisOnlyAfterThePartsGo() {
        let message = "not sent: the file is read-only (chmod u+w release-planning.jsonl)"
        assertScreen(draw(demoBar(message: message, isError: true), columns: 50), [
            "", "",
            " 2031/2031 · not sent: the file is read-only (chm…",
            "rrrrrrrrrrrrrEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE",
        ], legend: legend)
    }

    /// The connection is shortened to its state, never cut: `connect…` or `offline…` would say neither.
    func testTheConnectionKeepsItsStateWholeBesideALongMessage() {
        let message = "could not load older comments: homeserver https://matrix.example.org is unreachable"
        let rows = [ConnectionState.connecting, .offline(retryIn: 30), .stalled, .rateLimited(retryIn: 300)].map { connection in
            var view = demoBar(message: message, isError: true)
            view.connection = connection
            return draw(view, columns: 100).trimmedLines[1]
        }
        XCTAssertEqual(rows, [
            " connecting · 2031/2031 · could not load older comments: homeserver https://matrix.example.org is u…",
            " offline · 2031/2031 · could not load older comments: homeserver https://matrix.example.org is unre…",
            " stalled · 2031/2031 · could not load older comments: homeserver https://matrix.example.org is unre…",
            " rate limited · 2031/2031 · could not load older comments: homeserver https://matrix.example.org is…",
        ])
    }
}
