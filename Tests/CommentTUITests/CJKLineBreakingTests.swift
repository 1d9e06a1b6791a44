import Foundation
@testable import ThreadModel
import XCTest
@testable import CommentTUI

/// Japanese and Chinese line breaking (kinsoku, UAX #14 and JIS X 4051): no row starts with
/// closing punctuation and no row ends with an opening bracket; the character before moves on
/// with it instead.
final class CJKLineBreakingTests: XCTestCase {
    private func lines(_ body: String, width: Int) -> [String] {
        TextLayout(CommentMarkup.parse(body, handles: { _ in nil }), width: width).lines.map(\.text)
    }

    /// Characters no row may start with: closing brackets and punctuation, full and half width.
    private static let noStart = Set("。、，．」』）］｝〕〉》】〙〗〟’”！？!?),.:;：；・々ゝゞヽヾ〜｡､｣")
    /// Characters no row may end with: opening brackets.
    private static let noEnd = Set("「『（［｛〔〈《【〘〖〝‘“([{｢")

    /// The composer's rows for a draft of plain text at `width` columns.
    private func composerRows(_ text: String, width: Int) -> [String] {
        let draft = AttributedString(text)
        let styles = ComposerStyling.styles(of: draft, handles: { _ in nil })
        let layout = ComposerLayout(characters: draft.characters, styles: styles, selection: 0..<0, width: width)
        return layout.rows.map { $0.map(\.cluster.text).joined() }
    }

    /// The composer wraps as the feed will show the comment: a full stop never starts a row, an
    /// opening bracket never ends one.
    func testTheComposerKeepsAFullStopWithTheCharacterBeforeIt() {
        XCTAssertEqual(composerRows("日本語です。", width: 10), ["日本語で", "す。"])
        XCTAssertEqual(composerRows("あいうえ「お」", width: 10), ["あいうえ", "「お」"])
        // A full last row: the caret starts a new one, as a terminal would put it.
        XCTAssertEqual(composerRows("。。。。。。", width: 4), ["。。", "。。", "。。", ""])
    }

    func testAFullStopMovesOnWithTheCharacterBeforeIt() {
        XCTAssertEqual(lines("日本語です。", width: 10), ["日本語で", "す。"])
        XCTAssertEqual(lines("中文长句，测试", width: 8), ["中文长", "句，测试"])
    }

    func testAClosingBracketAndPunctuationAfterItStayTogether() {
        XCTAssertEqual(lines("あいう「えお」", width: 12), ["あいう「え", "お」"])
        XCTAssertEqual(lines("あいうえ」。", width: 8), ["あいう", "え」。"])
    }

    func testAnOpeningBracketMovesOnWithWhatItOpens() {
        XCTAssertEqual(lines("あいうえ「お」", width: 10), ["あいうえ", "「お」"])
        XCTAssertEqual(lines("あいう（えお）", width: 8), ["あいう", "（えお）"])
    }

    func testHalfWidthClosersAfterWideTextAreKeptWithIt() {
        XCTAssertEqual(lines("日本語!", width: 6), ["日本", "語!"])
        XCTAssertEqual(lines("日本語?", width: 6), ["日本", "語?"])
    }

    func testARowOfNothingButPunctuationStillBreaksWhereTheRowEnds() {
        XCTAssertEqual(lines("。。。。。。", width: 4), ["。。", "。。", "。。"])
        XCTAssertEqual(lines("「「「「", width: 4), ["「「", "「「"])
    }

    /// Where no break fits, the row still ends where it is full, but not before a comma.
    func testAWordTooLongForTheRowTakesALetterAlongWithItsComma() {
        XCTAssertEqual(lines("differently, nice", width: 11), ["differentl", "y, nice"])
        XCTAssertEqual(lines("abcdefghi(日本", width: 10), ["abcdefghi", "(日本"])
    }

    func testLatinTextStillBreaksAtSpaces() {
        XCTAssertEqual(lines("see (this) now!", width: 10), ["see (this)", "now!"])
        XCTAssertEqual(lines("ok 日本語です", width: 7), ["ok 日本", "語です"])
    }

    /// The demo's @aiko comment ended in a lone `。` where its body is 96 and 97 columns wide
    /// (`render --width 100` and 101); no width starts a row with a closer or ends one with an opener.
    func testTheDemosJapaneseCommentsNeverStartARowWithPunctuation() throws {
        let thread = DemoThread.make()
        let aiko = try XCTUnwrap(thread.comments.first { $0.author == "u21" })
        for width in [96, 97] {
            let rows = lines(aiko.body, width: width)
            XCTAssertEqual(rows.last, "す。", "the last character goes on with it: \(rows.joined(separator: "\n"))")
        }
        let cjk = thread.comments.filter { $0.body.unicodeScalars.contains { (0x3000...0x9FFF).contains($0.value) } }
        XCTAssertGreaterThan(cjk.count, 5)
        for comment in cjk {
            for width in 10...120 {
                let rows = lines(comment.body, width: width).filter { !$0.isEmpty }
                for (i, row) in rows.enumerated() {
                    // A ruby reading row stands over its base; only text rows are checked.
                    let text = row.trimmingCharacters(in: .whitespaces)
                    guard let first = text.first, let last = text.last else { continue }
                    if i > 0 { XCTAssertFalse(Self.noStart.contains(first), "width \(width): «\(row)» in \(rows)") }
                    if i < rows.count - 1 { XCTAssertFalse(Self.noEnd.contains(last), "width \(width): «\(row)» in \(rows)") }
                }
            }
        }
    }
}
