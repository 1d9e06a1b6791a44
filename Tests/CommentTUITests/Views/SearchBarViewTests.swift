import XCTest
import CommentTUITestSupport
@testable import CommentTUI

final class SearchBarViewTests: XCTestCase {
    private let legend: [Character: CellStyle] = ["p": Theme.prompt, "r": Theme.statusBar]

    func testThePromptThenTheQueryWithTheCursorAfterIt() {
        var buffer = CellBuffer(columns: 20, rows: 2)
        let cursor = SearchBarView(query: "bo").draw(into: &buffer, rect: CellRect(column: 0, row: 0, width: 20, height: 2))
        assertScreen(buffer, [
            "search: bo", "pppppppp",
            "", "",
        ], legend: legend)
        XCTAssertEqual(cursor, CursorPosition(column: 10, row: 0))
    }

    func testALongQueryLeavesTheLastColumnForTheCursor() {
        var buffer = CellBuffer(columns: 14, rows: 1)
        let cursor = SearchBarView(query: "abcdefghij").draw(into: &buffer, rect: CellRect(column: 0, row: 0, width: 14, height: 1))
        assertScreen(buffer, ["search: abcde", "pppppppp"], legend: legend)
        XCTAssertEqual(cursor, CursorPosition(column: 13, row: 0))
    }

    func testItClearsItsRectAndNothingElse() {
        var buffer = CellBuffer(columns: 12, rows: 3)
        for row in 0..<3 { buffer.write("xxxxxxxxxxxx", column: 0, row: row, style: Theme.statusBar) }
        _ = SearchBarView(query: "").draw(into: &buffer, rect: CellRect(column: 2, row: 1, width: 9, height: 2))
        assertScreen(buffer, [
            "xxxxxxxxxxxx", "rrrrrrrrrrrr",
            "xxsearch:  x", "rrpppppppp r",
            "xx         x", "rr         r",
        ], legend: legend)
    }
}
