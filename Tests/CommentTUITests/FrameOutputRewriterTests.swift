import XCTest
@testable import CommentTUI

/// ncurses' output made shorter: region scrolls with the margins kept, attribute changes in
/// one sequence. (What a terminal then shows is checked in tmux: `TmuxFrameBytesTests`.)
final class FrameOutputRewriterTests: XCTestCase {
    private func rewrite(_ rewriter: inout FrameOutputRewriter, _ text: String, rows: Int = 30) -> String {
        String(decoding: rewriter.rewrite(Array(text.utf8), rows: rows).bytes, as: UTF8.self)
    }

    private func tidy(_ text: String) -> String {
        String(decoding: FrameOutputRewriter.tidyStyles(Array(text.utf8)), as: UTF8.self)
    }

    func testARegionScrollKeepsItsMarginsAndScrollsWithoutMovingTheCursor() {
        var rewriter = FrameOutputRewriter(keepsRegion: true, scrollsWithoutCursor: true)
        let step = "\u{1B}[3;27r\u{1B}[3;1H\u{1B}M\u{1B}[1;30r\u{1B}[3;4Hnew row"
        XCTAssertEqual(rewrite(&rewriter, step), "\u{1B}[3;27r\u{1B}[T\u{1B}[3;4Hnew row")
        XCTAssertEqual(rewriter.keptRegion, 2...26)
        XCTAssertEqual(rewrite(&rewriter, step), "\u{1B}[T\u{1B}[3;4Hnew row", "the margins are already set")
        // Up, by several rows, and with ncurses saving the cursor around the margins.
        XCTAssertEqual(rewrite(&rewriter, "\u{1B}7\u{1B}[3;27r\u{1B}8\u{1B}[27;1H\n\u{1B}[1;30r"), "\u{1B}[S")
        XCTAssertEqual(rewrite(&rewriter, "\u{1B}[3;27r\u{1B}[3;1H\u{1B}[7T\u{1B}[1;30r"), "\u{1B}[7T")
        XCTAssertEqual(rewrite(&rewriter, "\u{1B}[5;20r\u{1B}[20;1H\u{1B}[4S\u{1B}[1;30r"), "\u{1B}[5;20r\u{1B}[4S")
        XCTAssertEqual(rewriter.keptRegion, 4...19)
    }

    func testAScrollWithoutAShorterFormKeepsNcursesMovesForTheKeptMargins() {
        var rewriter = FrameOutputRewriter(keepsRegion: true, scrollsWithoutCursor: false)
        XCTAssertEqual(rewrite(&rewriter, "\u{1B}[3;27r\u{1B}[3;1H\u{1B}M\u{1B}[1;30r"), "\u{1B}[3;27r\u{1B}[3;1H\u{1B}M")
        XCTAssertEqual(rewrite(&rewriter, "\u{1B}7\u{1B}[3;27r\u{1B}8\u{1B}[3;1H\u{1B}M\u{1B}[1;30r"), "\u{1B}[3;1H\u{1B}M")
        // Insert line is not taken apart: ncurses' bytes for these margins, the margins kept.
        var other = FrameOutputRewriter(keepsRegion: true, scrollsWithoutCursor: true)
        let insert = rewriter.rewrite(Array("\u{1B}7\u{1B}[5;20r\u{1B}8\u{1B}[5;1H\u{1B}[L\u{1B}[1;30r".utf8), rows: 30)
        XCTAssertEqual(String(decoding: insert.bytes, as: UTF8.self), "\u{1B}7\u{1B}[5;20r\u{1B}8\u{1B}[5;1H\u{1B}[L")
        XCTAssertTrue(insert.savesCursor, "the saved cursor is ncurses' now")
        XCTAssertEqual(rewrite(&other, "\u{1B}[1;30r"), "\u{1B}[1;30r", "margins set outside a scroll pass")
        XCTAssertNil(other.keptRegion)
    }

    func testMarginsAreGivenBackWithTheCursorWhereItWas() {
        var rewriter = FrameOutputRewriter(keepsRegion: true, scrollsWithoutCursor: true)
        XCTAssertEqual(rewriter.releaseRegion(rows: 30), [], "nothing to give back")
        _ = rewrite(&rewriter, "\u{1B}[3;27r\u{1B}[3;1H\u{1B}M\u{1B}[1;30r")
        XCTAssertEqual(String(decoding: rewriter.releaseRegion(rows: 30), as: UTF8.self), "\u{1B}7\u{1B}[1;30r\u{1B}8")
        XCTAssertNil(rewriter.keptRegion)
    }

    func testATerminalWithoutTheCapabilitiesGetsNcursesBytes() {
        var rewriter = FrameOutputRewriter(keepsRegion: false, scrollsWithoutCursor: false)
        let step = "\u{1B}[3;27r\u{1B}[3;1H\u{1B}M\u{1B}[1;30r"
        XCTAssertEqual(rewrite(&rewriter, step), step)
        XCTAssertNil(rewriter.keptRegion)
    }

    func testAttributeChangesBecomeOneSequenceWithoutCharacterSetReselection() {
        // xterm's entry: sgr re-selects ASCII, colours go apart, a colour reset before a reset.
        XCTAssertEqual(tidy("\u{1B}(B\u{1B}[0;1m\u{1B}[36mAnn\u{1B}[39m\u{1B}(B\u{1B}[m \u{1B}[36m@ann\u{1B}[39m\u{1B}(B\u{1B}[0;2m · now\u{1B}(B\u{1B}[m"),
                       "\u{1B}[1;36mAnn\u{1B}[m \u{1B}[36m@ann\u{1B}[0;2m · now\u{1B}[m")
        // tmux's: SI after each change.
        XCTAssertEqual(tidy("\u{1B}[0;7m\u{0F}status\u{1B}[m\u{0F}"), "\u{1B}[7mstatus\u{1B}[m")
        XCTAssertEqual(tidy("\u{1B}(B\u{1B}[mplain"), "plain", "a reset of nothing goes")
        XCTAssertEqual(tidy("\u{1B}[33m\u{1B}[48;5;235mcode\u{1B}[39;49m\u{1B}(B\u{1B}[m"), "\u{1B}[33;48;5;235mcode\u{1B}[m")
        XCTAssertEqual(tidy("\u{1B}[38;5;0mblack\u{1B}[m"), "\u{1B}[38;5;0mblack\u{1B}[m", "colour 0 is not a reset")
        XCTAssertEqual(tidy("\u{1B}8\u{1B}[0;1mx"), "\u{1B}8\u{1B}[0;1mx", "after DECRC the attributes are not known")
        XCTAssertEqual(tidy("\u{1B}[?25h\u{1B}[4:3mx"), "\u{1B}[?25h\u{1B}[4:3mx", "forms it does not take apart stay")
    }
}
