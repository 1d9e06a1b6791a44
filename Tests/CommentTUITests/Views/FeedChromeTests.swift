import XCTest
import ScrollEngine
import CommentTUITestSupport
@testable import CommentTUI

final class FeedChromeTests: XCTestCase {
    private let legend: [Character: CellStyle] = ["n": Theme.newMarker]

    /// A feed of `comments` comments at their estimated height (four rows each), at its bottom.
    private func scroll(comments: Int, rows: Int = 4) -> FeedScroll {
        FeedScroll(commentCount: comments, viewportRows: rows, columns: 20, postRows: 0,
                   configuration: ScrollConfiguration(), now: .zero)
    }

    private func draw(_ chrome: FeedChrome, columns: Int = 20, rows: Int = 4) -> CellBuffer {
        var buffer = CellBuffer(columns: columns, rows: rows)
        chrome.draw(into: &buffer, rect: CellRect(column: 0, row: 0, width: columns, height: rows))
        return buffer
    }

    func testAFeedThatFitsHasNoScrollbar() {
        assertScreen(draw(FeedChrome(scroll: scroll(comments: 1), newCount: 0)), [
            "", "", "", "", "", "", "", "",
        ], legend: legend)
    }

    func testAtTheBottomTheThumbIsTheTracksLastRow() {
        // 10 comments of 4 rows in 4 rows: a tenth shows, so the thumb is one row long.
        assertScreen(draw(FeedChrome(scroll: scroll(comments: 10), newCount: 0)), [
            "                   │", "",
            "                   │", "",
            "                   │", "",
            "                   ┃", "",
        ], legend: legend)
    }

    func testAtTheTopTheThumbIsTheTracksFirstRow() {
        let feed = scroll(comments: 10)
        feed.model.scrollTo(offset: 0, animated: false, at: .zero)
        assertScreen(draw(FeedChrome(scroll: feed, newCount: 0)), [
            "                   ┃", "",
            "                   │", "",
            "                   │", "",
            "                   │", "",
        ], legend: legend)
    }

    func testNewCommentsAreCountedOnTheLastRowBeforeTheScrollbar() {
        assertScreen(draw(FeedChrome(scroll: scroll(comments: 10), newCount: 2)), [
            "                   │", "",
            "                   │", "",
            "                   │", "",
            "           ↓ 2 new ┃", "          nnnnnnnnn",
        ], legend: legend)
    }

    func testANarrowFeedCutsTheNewMarker() {
        assertScreen(draw(FeedChrome(scroll: scroll(comments: 10), newCount: 12), columns: 8, rows: 2), [
            "       │", "",
            " ↓ 12 n┃", "nnnnnnn",
        ], legend: legend)
    }
}
