import XCTest
import ThreadModel
import CommentTUITestSupport
@testable import CommentTUI

final class HeaderViewTests: XCTestCase {
    private let legend: [Character: CellStyle] = [
        "b": Theme.title, "d": Theme.dim, "a": Theme.authorName, "h": Theme.handle, "i": CellStyle(.italic),
        "x": Theme.expandMarker,
    ]

    private func thread(body: String = "") -> CommentThread {
        CommentThread(id: "t", title: "Hello \u{1B}world", author: "u1", created: ThreadFixture.start, body: body,
                      users: [User(id: "u1", handle: "ann", name: "Ann")])
    }

    private func draw(_ thread: CommentThread, shownRows: Int, columns: Int, rows: Int) -> CellBuffer {
        let layout = ThreadHeaderLayout(thread: thread, width: columns, handles: { _ in nil })
        var buffer = CellBuffer(columns: columns, rows: rows)
        HeaderView(thread: thread, commentCount: 3, layout: layout, shownRows: shownRows, ownUserID: "u2")
            .draw(into: &buffer, width: columns)
        return buffer
    }

    func testCollapsedTheAuthorAndCountFollowTheTitle() {
        assertScreen(draw(thread(), shownRows: 0, columns: 36, rows: 2), [
            " Hello ␛world · @ann · 3 comments", " bbbbbbbbbbbbhhhhhhhddddddddddddd",
            "────────────────────────────────────", "dddddddddddddddddddddddddddddddddddd",
        ], legend: legend)
    }

    func testCollapsedAndNarrowTheRowIsCutBeforeTheLastColumn() {
        assertScreen(draw(thread(), shownRows: 0, columns: 16, rows: 2), [
            " Hello ␛world ·", " bbbbbbbbbbbbhh",
            "────────────────", "dddddddddddddddd",
        ], legend: legend)
    }

    /// The count after the date does not fit: the last column stays blank.
    func testExpandedTheAuthorLineThenThePostsFirstRows() {
        let post = thread(body: "the *plan* is\nto ship")
        XCTAssertEqual(ThreadHeaderLayout(thread: post, width: 30, handles: { _ in nil }).postRows, 3)
        assertScreen(draw(post, shownRows: 3, columns: 30, rows: 6), [
            " Hello ␛world", " bbbbbbbbbbbb",
            " Ann @ann · 2025-04-17 10:00 ", " aaahhhhhdddddddddddddddddddd",
            " the plan is", "     iiii",
            " to ship", "",
            "──────────────────────────────", "dddddddddddddddddddddddddddddd",
            "", "",
        ], legend: legend)
    }

    /// A long post shows its first three rows at most; the last one says it goes on.
    func testALongPostShowsAtMostThreeRows() {
        let post = thread(body: "one\ntwo\nthree\nfour\nfive")
        XCTAssertEqual(ThreadHeaderLayout(thread: post, width: 20, handles: { _ in nil }).postRows, 4)
        assertScreen(draw(post, shownRows: 4, columns: 20, rows: 6), [
            " Hello ␛world", " bbbbbbbbbbbb",
            " Ann @ann · 2025-04", " aaahhhhhdddddddddd",
            " one", "",
            " two", "",
            " thre… 2 more lines", "     xxxxxxxxxxxxxx",
            "────────────────────", "dddddddddddddddddddd",
        ], legend: legend)
    }
}
