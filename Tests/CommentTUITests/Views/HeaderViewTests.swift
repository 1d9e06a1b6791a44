import XCTest
import ThreadModel
import CommentTUITestSupport
@testable import CommentTUI

final class HeaderViewTests: XCTestCase {
    private let legend: [Character: CellStyle] = [
        "b": Theme.title, "d": Theme.dim, "a": Theme.authorName, "h": Theme.handle, "i": CellStyle(.italic),
        "x": Theme.expandMarker,
    ]

    private func thread(body: String = "", name: String = "Ann") -> CommentThread {
        CommentThread(id: "t", title: "Hello \u{1B}world", author: "u1", created: ThreadFixture.start, body: body,
                      users: [User(id: "u1", handle: "ann", name: name)])
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

    /// A room's notice (`🔒 encrypted`) outlasts any title: a long or hostile name is cut with
    /// `…` before it, collapsed or not.
    func testTheNoticeKeepsItsPlaceAfterALongTitle() {
        let long = CommentThread(id: "t", title: String(repeating: "A very long room name ", count: 10), author: "u1",
                                 created: ThreadFixture.start, body: "", users: [User(id: "u1", handle: "ann", name: "Ann")])
        for shownRows in [0, 1] {
            let layout = ThreadHeaderLayout(thread: long, width: 60, handles: { _ in nil })
            var buffer = CellBuffer(columns: 60, rows: 4)
            HeaderView(thread: long, commentCount: 3, layout: layout, shownRows: shownRows, ownUserID: "u2", notice: "🔒 encrypted")
                .draw(into: &buffer, width: 60)
            let row = buffer.trimmedLines[0]
            XCTAssertTrue(row.hasSuffix("… · 🔒 encrypted"), "\(shownRows) rows: \(row)")
            XCTAssertLessThanOrEqual(DisplayWidth.width(of: row), 59, row)
        }
    }

    func testCollapsedAndNarrowTheRowIsCutBeforeTheLastColumn() {
        assertScreen(draw(thread(), shownRows: 0, columns: 16, rows: 2), [
            " Hello ␛world", " bbbbbbbbbbbb",
            "────────────────", "dddddddddddddddd",
        ], legend: legend)
    }

    /// Collapsed and narrower, the row gives up the count, then the handle, whole, and then
    /// cuts the title with `…`, as the status bar gives up its parts: never `61 comm` or `@ann ·`.
    func testCollapsedTheRowDropsWholePartsThenCutsTheTitle() {
        let demo = CommentThread(id: "t", title: "Scrolling like a phone, in a terminal", author: "u1",
                                 created: ThreadFixture.start, body: "", users: [User(id: "u1", handle: "tatiana", name: "Tatiana B.")])
        func row(_ count: Int, _ columns: Int) -> String {
            let layout = ThreadHeaderLayout(thread: demo, width: columns, handles: { _ in nil })
            var buffer = CellBuffer(columns: columns, rows: 2)
            HeaderView(thread: demo, commentCount: count, layout: layout, shownRows: 0, ownUserID: "u2").draw(into: &buffer, width: columns)
            return buffer.trimmedLines[0]
        }
        let whole = " Scrolling like a phone, in a terminal · @tatiana"
        XCTAssertEqual(row(61, 64), whole + " · 61 comments")
        XCTAssertEqual(row(5000, 66), whole + " · 5000 comments")
        for columns in [30, 38, 40, 48, 49, 50, 55, 60, 62, 63] {
            for count in [61, 5000] {
                let shown = row(count, columns)
                let expected = columns >= 50 ? whole : columns >= 39 ? " Scrolling like a phone, in a terminal"
                    : columns == 38 ? " Scrolling like a phone, in a termin…" : " Scrolling like a phone, in…"
                XCTAssertEqual(shown, expected, "\(count) comments at \(columns) columns")
            }
        }
        XCTAssertEqual(row(5000, 65), whole, "5000 comments needs 66 columns")
        XCTAssertEqual(row(61, 63), whole)
    }

    func testATitleTooLongForTheRowEndsInAnEllipsis() {
        assertScreen(draw(thread(), shownRows: 1, columns: 10, rows: 3), [
            " Hello ␛…", " bbbbbbbb",
            " Ann @ann", " aaahhhhh",
            "──────────", "dddddddddd",
        ], legend: legend)
    }

    /// The count after the date does not fit: it goes, whole.
    func testExpandedTheAuthorLineThenThePostsFirstRows() {
        let post = thread(body: "the *plan* is\nto ship")
        XCTAssertEqual(ThreadHeaderLayout(thread: post, width: 30, handles: { _ in nil }).postRows, 3)
        assertScreen(draw(post, shownRows: 3, columns: 30, rows: 6), [
            " Hello ␛world", " bbbbbbbbbbbb",
            " Ann @ann · 2025-04-17 10:00", " aaahhhhhddddddddddddddddddd",
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
            " Ann @ann", " aaahhhhh",
            " one", "",
            " two", "",
            " thre… 2 more lines", "     xxxxxxxxxxxxxx",
            "────────────────────", "dddddddddddddddddddd",
        ], legend: legend)
    }

    /// The author line gives up the count, then the date, whole; then the name ends in `…` so the
    /// handle still shows.
    func testANarrowAuthorLineDropsWholePartsThenCutsTheName() {
        let post = thread(name: "Annabelle Lee-Montgomery")
        let lines = [64, 60, 50, 40, 30, 20].map { draw(post, shownRows: 1, columns: $0, rows: 3).trimmedLines[1] }
        XCTAssertEqual(lines, [
            " Annabelle Lee-Montgomery @ann · 2025-04-17 10:00 · 3 comments",
            " Annabelle Lee-Montgomery @ann · 2025-04-17 10:00",
            " Annabelle Lee-Montgomery @ann · 2025-04-17 10:00",
            " Annabelle Lee-Montgomery @ann",
            " Annabelle Lee-Montgome… @ann",
            " Annabelle Le… @ann",
        ])
        assertScreen(draw(post, shownRows: 1, columns: 20, rows: 3), [
            " Hello ␛world", " bbbbbbbbbbbb",
            " Annabelle Le… @ann", " aaaaaaaaaaaaahhhhh",
            "────────────────────", "dddddddddddddddddddd",
        ], legend: legend)
    }
}
