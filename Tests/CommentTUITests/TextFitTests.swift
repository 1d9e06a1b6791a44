import XCTest
@testable import CommentTUI

/// `TextFit`: text cut to a width ends in `…`, counted in columns, and never splits a cluster.
final class TextFitTests: XCTestCase {
    func testTextThatFitsIsLeftWhole() {
        XCTAssertEqual(TextFit.cut("release", to: 7), "release")
        XCTAssertEqual(TextFit.cut("", to: 0), "")
    }

    func testACutEndsInAnEllipsisWithinTheWidth() {
        XCTAssertEqual(TextFit.cut("release.jsonl", to: 8), "release…")
        XCTAssertEqual(TextFit.cut("release.jsonl", to: 1), "…")
        XCTAssertEqual(TextFit.cut("release.jsonl", to: 0), "")
    }

    /// CJK takes two columns: a wide character that would pass the `…` goes whole.
    func testWideCharactersCountTwoColumnsAndAreNeverHalved() {
        XCTAssertEqual(TextFit.cut("日本語です", to: 6), "日本…")
        XCTAssertEqual(TextFit.cut("日本語です", to: 5), "日本…")
        XCTAssertEqual(TextFit.cut("日本語です", to: 4), "日…")
        XCTAssertEqual(DisplayWidth.width(of: TextFit.cut("a日本語", to: 4)), 4)
    }

    /// A letter with its marks, a flag, a family: whole or gone.
    func testGraphemeClustersAreKeptWholeOrDropped() {
        XCTAssertEqual(TextFit.cut("e\u{301}e\u{301}e\u{301}", to: 3), "e\u{301}e\u{301}e\u{301}")
        XCTAssertEqual(TextFit.cut("e\u{301}e\u{301}e\u{301}", to: 2), "e\u{301}…")
        XCTAssertEqual(TextFit.cut("🇫🇷🇩🇪", to: 3), "🇫🇷…", "a flag shows as its two letters, two columns")
        XCTAssertEqual(TextFit.cut("ab👨‍👩‍👧", to: 4), "ab…", "the family goes whole")
    }

    func testACutDoesNotLeaveASpaceBeforeTheEllipsis() {
        XCTAssertEqual(TextFit.cut("Ann Lee", to: 5), "Ann…")
    }

    /// The buffer's helper draws the cut text, and nothing past the limit.
    func testWritingCutsAtTheLimit() {
        var buffer = CellBuffer(columns: 12, rows: 1)
        let end = buffer.write("release-planning", column: 1, row: 0, cuttingAt: 11)
        XCTAssertEqual(buffer.line(0), " release-p… ")
        XCTAssertEqual(end, 11)
        buffer._checkInvariants()
    }
}
