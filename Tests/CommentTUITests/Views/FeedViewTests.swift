import XCTest
import ThreadModel
import CommentTUITestSupport
@testable import CommentTUI

final class FeedViewTests: XCTestCase {
    private let legend: [Character: CellStyle] = [
        "a": Theme.authorName, "o": Theme.ownName, "h": Theme.handle, "d": Theme.dim,
        "s": Theme.selectionGutter, "u": Theme.unreadDivider, "U": Theme.unreadDivider.adding(.bold), "p": Theme.problem,
        "m": Theme.searchMatch,
    ]

    /// A feed over `makeSmallThread`'s comments (c1 and c3 by Bo, c2 by Ann, who reads), with
    /// comment lines that did not read in `broken`.
    private func feed(anchor: FeedAnchor = .top, selected: Int? = nil, firstUnread: Int? = nil,
                      broken: Set<Int> = [], width: Int = 30, search: String? = nil) -> FeedView {
        let thread = ThreadFixture.numbered(3).thread
        let layout = FeedLayout(width: width)
        let source = FeedLayout.Source(
            item: { broken.contains($0) ? .problem(ThreadFileProblem(line: $0 + 2, message: "bad JSON")) : .comment(thread.comments[$0]) },
            user: { thread.user(id: $0) }, handleID: { _ in nil }, isExpanded: { _ in false },
            startsUnread: { $0 == firstUnread })
        var view = FeedView(anchor: anchor, commentCount: 3, postRows: 0, ownUserID: "u1", selected: selected, now: ThreadFixture.now,
                            layout: { layout.layout(of: $0, source) }, revealed: { _ in [] })
        view.search = search.map { SearchPattern(query: $0, users: thread.users) }
        return view
    }

    private func draw(_ view: FeedView, columns: Int, rows: Int) -> CellBuffer {
        var buffer = CellBuffer(columns: columns, rows: rows)
        view.draw(into: &buffer, rect: CellRect(column: 0, row: 0, width: columns, height: rows))
        return buffer
    }

    func testHeadersThenIndentedBodiesTheReadersNameInItsOwnColour() {
        assertScreen(draw(feed(width: 30), columns: 30, rows: 6), [
            " Bo 日本 @bo · 2025-04-17", " aaaaaaa hhhddddddddddddd",
            "   comment number 1", "",
            "", "",
            " Ann @ann · 2025-04-17", " ooo hhhhddddddddddddd",
            "   comment number 2", "",
            "", "",
        ], legend: legend)
    }

    func testTheSelectedCommentIsMarkedInTheGutterOnEachOfItsRows() {
        assertScreen(draw(feed(selected: 0), columns: 30, rows: 4), [
            "▌Bo 日本 @bo · 2025-04-17", "saaaaaaa hhhddddddddddddd",
            "▌  comment number 1", "s",
            "▌", "s",
            " Ann @ann · 2025-04-17", " ooo hhhhddddddddddddd",
        ], legend: legend)
    }

    /// At 20 columns the header takes its standard form: name and time, then the handle.
    func testTheFirstUnreadCommentHasANewDividerAboveIt() {
        assertScreen(draw(feed(anchor: FeedAnchor(comment: 1, row: 0), firstUnread: 1, width: 20), columns: 20, rows: 3), [
            " ────── new ───────", " uuuuuuUUUUUuuuuuuu",
            " Ann · 2025-04-17", " oooddddddddddddd",
            " @ann", " hhhh",
        ], legend: legend)
    }

    func testALineThatDidNotReadShowsItsProblem() {
        assertScreen(draw(feed(anchor: FeedAnchor(comment: 1, row: 0), broken: [1]), columns: 30, rows: 3), [
            "   line 3: bad JSON", "   pppppppppppppppp",
            "", "",
            " Bo 日本 @bo · 2025-04-17", " aaaaaaa hhhddddddddddddd",
        ], legend: legend)
    }

    /// A comment counts as shown by its header or text: not by the blank row after it, nor by
    /// the divider above it.
    func testOnlyAHeaderOrTextRowShowsAComment() {
        var buffer = CellBuffer(columns: 30, rows: 4)
        let blankOfFirst = feed(anchor: FeedAnchor(comment: 0, row: 2)).draw(into: &buffer, rect: CellRect(column: 0, row: 0, width: 30, height: 3))
        XCTAssertEqual(blankOfFirst.commentsShown, 1...1)
        let dividerOfSecond = feed(firstUnread: 1).draw(into: &buffer, rect: CellRect(column: 0, row: 0, width: 30, height: 4))
        XCTAssertEqual(dividerOfSecond.commentsShown, 0...0)
    }

    /// At 12 columns the header is stacked (name, handle, time); the anchor's row 1 is the handle.
    func testTheAnchorRowIsTheTopRowAndTheLastColumnIsLeftToTheScrollbar() {
        var buffer = CellBuffer(columns: 12, rows: 2)
        for row in 0..<2 { buffer.write(String(repeating: "x", count: 12), column: 0, row: row) }
        feed(anchor: FeedAnchor(comment: 0, row: 1), width: 12).draw(into: &buffer, rect: CellRect(column: 0, row: 0, width: 12, height: 2))
        assertScreen(buffer, [
            " @bo       x", " hhh",
            " 2025-04-17x", " dddddddddd",
        ], legend: legend)
    }

    /// Ctrl-S's query stands out where it shows (issue 28, item 3): in reverse video, which
    /// needs no colour, in every comment on screen; in a name or handle it matched by, too.
    func testASearchsQueryStandsOutInTheTextAndTheHeaders() {
        assertScreen(draw(feed(search: "NUMBER 2"), columns: 30, rows: 6), [
            " Bo 日本 @bo · 2025-04-17", " aaaaaaa hhhddddddddddddd",
            "   comment number 1", "",
            "", "",
            " Ann @ann · 2025-04-17", " ooo hhhhddddddddddddd",
            "   comment number 2", "           mmmmmmmm",
            "", "",
        ], legend: legend)
        assertScreen(draw(feed(search: "bo"), columns: 30, rows: 3), [
            " Bo 日本 @bo · 2025-04-17", " mmaaaaa hmmddddddddddddd",
            "   comment number 1", "",
            "", "",
        ], legend: legend)
    }
}
