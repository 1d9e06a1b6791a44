import Foundation
@testable import ThreadModel
import XCTest
import CommentTUITestSupport
@testable import CommentTUI

/// Ruby laid out and drawn: each reading on a row above its base, centred, the base padded
/// where the reading is wider, one reading row per row of bases, base and reading wrapped together.
final class RubyLayoutTests: XCTestCase {
    private func layout(_ body: String, width: Int) -> TextLayout {
        TextLayout(CommentMarkup.parse(body, handles: { _ in nil }), width: width)
    }

    private func lines(_ body: String, width: Int) -> [String] {
        layout(body, width: width).lines.map(\.text)
    }

    func testAReadingIsCentredOverACJKBase() {
        XCTAssertEqual(lines("{東京都|とう}へ", width: 20), [" とう", "東京都へ"])
        XCTAssertEqual(lines("{abcdef|ab}", width: 20), ["  ab", "abcdef"])
        XCTAssertEqual(lines("{漢字|かん}", width: 20), ["かん", "漢字"])
    }

    func testABaseNarrowerThanItsReadingIsPadded() {
        XCTAssertEqual(lines("{漢字|かんじ}を読む", width: 20), ["かんじ", " 漢字 を読む"])
        XCTAssertEqual(lines("a{字|abc}b", width: 20), [" abc", "a字 b"])
    }

    func testAnnotationsOnOneRowShareItsReadingRow() {
        XCTAssertEqual(lines("今日は{東京|とうきょう}で{日本語|にほんご}", width: 40), [
            "      とうきょう  にほんご",
            "今日は   東京   で 日本語 ",
        ])
        XCTAssertEqual(lines("{日|ひ}{日|ひ}", width: 20), ["ひひ", "日日"], "two annotations, not one")
    }

    func testRowsWithoutRubyGetNoReadingRow() {
        XCTAssertEqual(lines("plain\\\n{字|じ}\\\nplain again\n\nnext", width: 20), ["plain", "じ", "字", "plain again", "", "next"])
        XCTAssertEqual(layout("no ruby at all", width: 20).lines.count, 1)
    }

    func testWrappingKeepsBaseAndReadingTogether() {
        // At 20 the second annotation does not fit after `で`: base and reading move on together.
        XCTAssertEqual(lines("今日は{東京|とうきょう}で{日本語|にほんご}", width: 20), [
            "      とうきょう",
            "今日は   東京   で",
            "にほんご",
            " 日本語 ",
        ])
        // At 14 even the first moves on whole.
        XCTAssertEqual(lines("今日は{東京|とうきょう}で", width: 14), ["今日は", "とうきょう", "   東京   で"])
        XCTAssertEqual(lines("words {漢字|かんじ} words", width: 10), ["words", "かんじ", " 漢字 ", "words"])
    }

    func testAReadingWiderThanTheRowIsCut() {
        XCTAssertEqual(lines("x {字|this reading is far too long} y", width: 12), ["x", "this readin…", "     字     ", "y"])
    }

    func testABaseWiderThanTheRowBreaksWithItsReading() {
        XCTAssertEqual(lines("{abcdefghijklmnop|r}", width: 10), ["       r", "abcdefghij", "klmnop"])
        XCTAssertEqual(lines("{abcdefghijklmnop|0123456789abcdef}", width: 10), ["0123456789", "abcdefghij", "abcdef", "klmnop"])
    }

    func testQuotesAndListsKeepTheirPrefixesUnderAReading() {
        XCTAssertEqual(lines("> {字|じ}", width: 10), ["│ じ", "│ 字"])
        XCTAssertEqual(lines("- {字|じ}", width: 10), ["  じ", "• 字"])
    }

    func testCombiningMarksAndHostileReadings() {
        XCTAssertEqual(lines("{e\u{301}\u{303}|e}", width: 10), ["e", "e\u{301}\u{303}"])
        let hostile = layout("{字|\u{1B}[2J\u{202E}\u{7}}", width: 20)
        XCTAssertEqual(hostile.lines.map(\.text), ["␛[2J\u{FFFD}␇", "  字  "])
        XCTAssertFalse(hostile.lines.flatMap(\.runs).flatMap(\.clusters).contains { $0.text.unicodeScalars.contains { $0.value < 0x20 } })
        XCTAssertEqual(hostile.lines[0].runs.first?.clusters.reduce(0) { $0 + $1.width }, 6, "widths by the same rules as any text")
    }

    func testTruncationNeverEndsOnAReadingRow() {
        let full = layout("a\\\nb\\\n{字|じ}\\\nc", width: 20)
        XCTAssertEqual(full.lines.map(\.text), ["a", "b", "じ", "字", "c"])
        XCTAssertEqual(full.truncated(toRows: 3).lines.map(\.text), ["a", "b", "… 2 more lines"])
        XCTAssertEqual(full.truncated(toRows: 4).lines.map(\.text), ["a", "b", "じ", "字 … 1 more line"])
    }

    func testPlainRunsLayOutLikeTheAttributedString() {
        for body in ["今日は{東京|とうきょう}で", "[{字|じ}](http://a.com) {x|**y**}", "||{秘|ひ}|| {é|e}\u{301}"] {
            XCTAssertEqual(TextLayout(CommentMarkup.parseRuns(body, handles: { _ in nil }), width: 12),
                           TextLayout(CommentMarkup.parse(body, handles: { _ in nil }), width: 12), body)
        }
    }

    func testReadingsAreDimAndHiddenWithTheirSpoiler() {
        let text = layout("{字|じ} ||{秘密|ひみつ}||", width: 20)
        var buffer = CellBuffer(columns: 20, rows: text.lines.count)
        for (row, line) in text.lines.enumerated() {
            CommentRenderer().draw(line, into: &buffer, column: 0, row: row, limit: 20)
        }
        XCTAssertEqual(buffer.trimmedLines, ["じ ░░░░░░", "字 ░░░░░░"])
        XCTAssertEqual(buffer[0, 0].style, Theme.rubyReading)
        XCTAssertEqual(buffer[4, 0].style, Theme.spoiler)
        XCTAssertEqual(text.style(line: 0, column: 4)?.spoiler, 1, "a click on the masked reading reveals the spoiler")
        var revealed = CellBuffer(columns: 20, rows: text.lines.count)
        for (row, line) in text.lines.enumerated() {
            CommentRenderer(revealedSpoilers: [1]).draw(line, into: &revealed, column: 0, row: row, limit: 20)
        }
        XCTAssertEqual(revealed.trimmedLines, ["じ ひみつ", "字  秘密"], "same width: nothing moved")
    }

    /// The feed counts the reading rows as rows of the comment: the screen shows each one above
    /// its base, and the comment after it starts where the rows say.
    func testTheFeedShowsReadingRowsAndCountsThem() throws {
        let pilot = ThreadFixture(title: "Ruby", users: [ThreadFixture.ann])
            .adding(["今日は{東京|とうきょう}で", "after"], by: "u1").pilot(columns: 40, rows: 16)
        pilot.press(.ctrlEnd)
        pilot.settle()
        let lines = pilot.lines
        let shown = lines.joined(separator: "\n")
        let base = try XCTUnwrap(lines.firstIndex { $0.contains("今日は   東京   で") }, shown)
        XCTAssertEqual(lines[base - 1], "         とうきょう", shown)
        XCTAssertTrue(lines[base - 2].contains("Ann @ann"), shown)
        XCTAssertEqual(lines[base + 1], "", "the gap row: \(shown)")
        XCTAssertTrue(lines[base + 2].contains("Ann @ann"), shown)
        XCTAssertTrue(lines[base + 3].contains("after"), shown)
    }
}
