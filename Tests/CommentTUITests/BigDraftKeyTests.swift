import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// Keys in a big draft: each costs what its edit costs (issue 36). The work is counted, not
/// timed: `ComposerWholeReads` counts the Characters read from the draft's start or whole (an
/// offset from the start, the Markdown of the whole draft), which a key must not read at all,
/// at n and at 2n. The draft's text after the keys is checked too.
final class BigDraftKeyTests: XCTestCase {
    static let line = "Pasted log line with some words, 12:00:01 INFO ok\n"

    /// A pilot whose draft holds `lines` lines, the caret at the end or, with `inTheMiddle`,
    /// between the first half and the second (which is one long line).
    func pilot(lines: Int, inTheMiddle: Bool) -> (Pilot, expected: String) {
        let pilot = ThreadFixture.numbered().pilot(columns: 60, rows: 18)
        let half = String(repeating: Self.line, count: lines / 2)
        if inTheMiddle {
            let second = half.replacingOccurrences(of: "\n", with: " ")
            pilot.send(.paste(second))
            pilot.press(.ctrl("a"))
            pilot.send(.paste(half))
            return (pilot, half + second)
        }
        pilot.send(.paste(half + half))
        return (pilot, half + half)
    }

    /// The Characters `body` read from the draft's start or whole.
    func wholeReads(_ body: () -> Void) -> Int {
        let before = ComposerWholeReads.characters
        body()
        return ComposerWholeReads.characters - before
    }

    func testATypedKeyReadsNothingFromTheDraftsStartAtItsEndOrMiddle() {
        for inTheMiddle in [false, true] {
            for lines in [2_000, 4_000] {
                let (pilot, expected) = pilot(lines: lines, inTheMiddle: inTheMiddle)
                let split = expected.index(expected.startIndex, offsetBy: inTheMiddle ? lines / 2 * Self.line.count : expected.count)
                let reads = wholeReads {
                    pilot.type("xy")
                    pilot.press(KeyPress(.backspace))
                    pilot.type(" z")
                }
                XCTAssertEqual(reads, 0, "\(lines) lines, \(inTheMiddle ? "middle" : "end"): a key reads nothing from the draft's start")
                XCTAssertEqual(pilot.draft, String(expected[..<split]) + "x z" + expected[split...])
                XCTAssertTrue(pilot.hasTextToSend)
            }
        }
    }

    func testUpDownAndAClickInABigDraftMoveTheCaretWithoutCountingFromTheStart() throws {
        for lines in [2_000, 4_000] {
            let (pilot, expected) = pilot(lines: lines, inTheMiddle: false)
            let reads = wholeReads {
                pilot.press(KeyPress(.up))
                pilot.type("U")
                pilot.press(KeyPress(.down))
                pilot.type("D")
            }
            XCTAssertEqual(reads, 0, "\(lines) lines: Up and Down read nothing from the draft's start")
            // Up from the empty last row is the start of the last line; Down from after its
            // `U` is the empty last row again.
            let lastLine = expected.dropLast().lastIndex(of: "\n").map { expected.index(after: $0) }!
            let typed = String(expected[..<lastLine]) + "U" + expected[lastLine...] + "D"
            XCTAssertEqual(pilot.draft, typed)
            // A click at the start of the composer's first row puts the caret there: a line
            // start among the last lines, the ones the composer shows.
            let composerRow = try XCTUnwrap(pilot.lines.firstIndex { $0.hasPrefix("↑") })
            let clickReads = wholeReads { pilot.click(column: ComposerView.promptWidth, row: composerRow) }
            XCTAssertEqual(clickReads, 0, "\(lines) lines: a click reads nothing from the draft's start")
            pilot.type("C")
            let draft = pilot.draft
            let c = try XCTUnwrap(draft.firstIndex(of: "C"))
            XCTAssertEqual(String(draft[..<c]) + draft[draft.index(after: c)...], typed)
            XCTAssertEqual(draft[draft.index(before: c)], "\n", "the click's caret was at a row's start")
            XCTAssertLessThanOrEqual(draft[c...].filter { $0 == "\n" }.count, pilot.composerMaximumRows)
        }
    }

    func testAMentionTypedAndInsertedInABigDraftReadsNothingFromItsStart() {
        for lines in [2_000, 4_000] {
            let (pilot, expected) = pilot(lines: lines, inTheMiddle: true)
            let reads = wholeReads {
                pilot.type("@b")
                pilot.press(KeyPress(.tab))
                pilot.type("hi")
            }
            XCTAssertEqual(reads, 0, "\(lines) lines: a mention reads nothing from the draft's start")
            let split = expected.index(expected.startIndex, offsetBy: lines / 2 * Self.line.count)
            XCTAssertEqual(pilot.draft, String(expected[..<split]) + "@bo hi" + expected[split...])
            XCTAssertEqual(pilot.draftDocument.mentionedUserIDs, ["u2"])
        }
    }

    func testADraftOfOnlyWhiteSpaceHasNothingToSend() {
        let pilot = ThreadFixture.numbered().pilot()
        pilot.send(.paste("  \n\t \n"))
        XCTAssertFalse(pilot.hasTextToSend)
        XCTAssertNil(pilot.bodyToSend)
        pilot.type("a")
        XCTAssertTrue(pilot.hasTextToSend)
        pilot.press(KeyPress(.backspace))
        XCTAssertFalse(pilot.hasTextToSend)
        // Bold white space is written as white space: still nothing to send.
        pilot.send(.paste(" "))
        pilot.press(.ctrl("x"))
        pilot.type("b")
        pilot.type("  ")
        XCTAssertEqual(pilot.hasTextToSend, pilot.bodyToSend != nil)
    }
}
