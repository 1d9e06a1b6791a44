import XCTest
import CommentTUITestSupport
@testable import CommentTUI

/// The screen assertion's reading of a buffer and its report.
final class ScreenLinesTests: XCTestCase {
    func testRowsEndAfterTheLastCellThatIsNotAPlainBlank() {
        var buffer = CellBuffer(columns: 8, rows: 3)
        buffer.write("ab", column: 1, row: 0)
        buffer.fill(row: 1, from: 2, to: 4, style: Theme.statusBar)
        let screen = ScreenLines(buffer, legend: ["r": Theme.statusBar])
        XCTAssertEqual(screen.lines, [" ab", "", "    ", "  rr", "", ""])
    }

    func testAWideCharacterIsOneCharacterOfTextAndTwoStyleLetters() {
        var buffer = CellBuffer(columns: 6, rows: 1)
        buffer.write("日x", column: 0, row: 0, style: Theme.title)
        XCTAssertEqual(ScreenLines(buffer, legend: ["b": Theme.title]).lines, ["日x", "bbb"])
    }

    func testAStyleTheLegendLacksIsAQuestionMark() {
        var buffer = CellBuffer(columns: 4, rows: 1)
        buffer.write("ab", column: 0, row: 0, style: Theme.link)
        XCTAssertEqual(ScreenLines(buffer).lines, ["ab", "??"])
    }

    func testExpectedLinesIgnoreTrailingPlainStyleLetters() {
        XCTAssertEqual(ScreenLines(["ab  x", "rr   ", "c"]).rows,
                       [ScreenLines.Row(text: "ab  x", styles: "rr"), ScreenLines.Row(text: "c", styles: "")])
    }

    func testTheDifferenceNamesTheRowAndColumn() {
        var buffer = CellBuffer(columns: 6, rows: 2)
        buffer.write("abcd", column: 0, row: 1, style: Theme.statusBar)
        let actual = ScreenLines(buffer, legend: ["r": Theme.statusBar])
        XCTAssertNil(actual.difference(from: ScreenLines(["", "", "abcd", "rrrr"])))
        let report = actual.difference(from: ScreenLines(["", "", "abcd", "rr r"])) ?? ""
        XCTAssertTrue(report.contains("row 1 expected \"abcd\""), report)
        XCTAssertTrue(report.contains("^ column 2"), report)
        XCTAssertFalse(report.contains("row 0"), "an equal row is not reported:\n\(report)")
        let short = actual.difference(from: ScreenLines(["", ""])) ?? ""
        XCTAssertTrue(short.contains("expected 1 rows, the screen has 2"), short)
    }

    func testTheDescriptionIsSwiftToPaste() {
        var buffer = CellBuffer(columns: 4, rows: 1)
        buffer.write("a\"\\", column: 0, row: 0)
        XCTAssertEqual(ScreenLines(buffer).description, "    \"a\\\"\\\\\",\n    \"\",")
    }
}
