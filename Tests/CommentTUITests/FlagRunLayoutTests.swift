import Foundation
@testable import ThreadModel
import XCTest
@testable import CommentTUI

/// Runs of regional indicators (flag emoji) laid out: paired from the run's start whatever its
/// length, two letters a flag, never split across rows. (Issue 36: a run cost its length
/// squared; the speed is the benchmark's `flags` group, this the behaviour it keeps.)
final class FlagRunLayoutTests: XCTestCase {
    private let countries = ["🇫🇷", "🇩🇪", "🇯🇵", "🇺🇸", "🇧🇷"]

    private func layout(_ body: String, width: Int) -> TextLayout {
        TextLayout(CommentMarkup.parse(body, handles: { _ in nil }), width: width)
    }

    /// `count` flags cycling through `countries`, as one run.
    private func flags(_ count: Int) -> String {
        (0..<count).map { countries[$0 % countries.count] }.joined()
    }

    /// The letters the flags show as, substituted (`DisplayWidth`): `FRDEJP…`.
    private func letters(_ count: Int) -> String {
        flags(count).unicodeScalars.map { String(Character(Unicode.Scalar($0.value - 0x1F1E6 + 0x41)!)) }.joined()
    }

    func testAnOddRunPairsFromItsStartAndLeavesTheLastIndicatorAlone() {
        let odd = flags(3) + "\u{1F1EC}"  // FR DE JP, then a lone G
        let clusters = LogicalLines.split(CommentMarkup.parse(odd, handles: { _ in nil }))[0].clusters
        XCTAssertEqual(clusters.map(\.cluster.text).joined(), "FRDEJPG")
        // The second letter of each flag joins the first; the lone one starts a character.
        XCTAssertEqual(clusters.map(\.joinsPrevious), [false, true, false, true, false, true, false])
        XCTAssertEqual(clusters.map(\.cluster.width), Array(repeating: 1, count: 7))
        // After a letter the pairs still count from the run's first indicator.
        let afterText = LogicalLines.split(CommentMarkup.parse("a" + odd, handles: { _ in nil }))[0].clusters
        XCTAssertEqual(afterText.map(\.joinsPrevious), [false, false, true, false, true, false, true, false])
    }

    /// A flag whose letters fall in two styles belongs to the run that holds its last scalar.
    func testAFlagAcrossAStyleChangeTakesTheStyleOfItsLastLetter() {
        let line = layout("\u{1F1EB}**\u{1F1F7}\u{1F1E9}**\u{1F1EA}", width: 20).lines[0]
        XCTAssertEqual(line.text, "FRDE")
        XCTAssertEqual(line.runs.map { $0.clusters.map(\.text).joined() }, ["FR", "DE"])
        XCTAssertEqual(line.runs.map(\.style.strong), [true, false])
    }

    func testALongRunWrapsBetweenFlagsNeverInsideOne() {
        // 10,001 flags at an odd width: ten flags a row, the row's last column left empty.
        let count = 10_001
        let rows = layout(flags(count), width: 21).lines.map(\.text)
        XCTAssertEqual(rows.count, 1_001)
        XCTAssertTrue(rows.dropLast().allSatisfy { $0.count == 20 }, "every full row holds ten whole flags")
        XCTAssertEqual(rows.last, "FR")
        XCTAssertEqual(rows.joined(), letters(count))
    }

    func testRunsAtTheEdgeOfARowKeepTheirPairsWhole() {
        // After `ab `: the run's first flag goes on with it; where none fits, a row is full.
        XCTAssertEqual(layout("ab " + flags(5), width: 6).lines.map(\.text), ["ab", "FRDEJP", "USBR"])
        // An odd run: the lone last indicator is a character of its own, alone on the next row.
        XCTAssertEqual(layout("ab " + flags(2) + "\u{1F1EC}", width: 4).lines.map(\.text), ["ab", "FRDE", "G"])
        // Flags parted by spaces wrap at the spaces.
        XCTAssertEqual(layout("🇫🇷 🇩🇪 🇯🇵", width: 5).lines.map(\.text), ["FR DE", "JP"])
    }

    func testWhereTheTerminalDrawsFlagsWholeALongRunIsTwoColumnsAFlag() {
        DisplayWidth.policy = .allIntact
        defer { DisplayWidth.policy = .substitute }
        let lines = layout(flags(1_001), width: 9).lines
        XCTAssertEqual(lines.count, 251, "four flags (8 columns) a row")
        XCTAssertTrue(lines.allSatisfy { $0.width <= 8 })
        XCTAssertEqual(lines.flatMap { $0.runs.flatMap(\.clusters) }.map(\.text).joined(), flags(1_001))
    }
}
