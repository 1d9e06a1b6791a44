import XCTest
import Foundation
@testable import CommentTUI
@testable import ThreadModel

final class CellBufferTests: XCTestCase {
    func testASCIIWritesOneCellPerCharacter() {
        var buffer = CellBuffer(columns: 10, rows: 1)
        let end = buffer.write("hello", column: 2, row: 0)
        XCTAssertEqual(end, 7)
        XCTAssertEqual(buffer.line(0), "  hello   ")
        buffer._checkInvariants()
    }

    func testWideClusterTakesTwoCellsWithContinuation() {
        var buffer = CellBuffer(columns: 6, rows: 1)
        buffer.write("日本x", column: 0, row: 0)
        XCTAssertEqual(buffer[0, 0].text, "日")
        XCTAssertEqual(buffer[0, 0].width, 2)
        XCTAssertTrue(buffer[1, 0].isContinuation)
        XCTAssertEqual(buffer[2, 0].text, "本")
        XCTAssertEqual(buffer[4, 0].text, "x")
        XCTAssertEqual(buffer.line(0), "日本x ")
        buffer._checkInvariants()
    }

    func testWideClusterThatDoesNotFitIsBlankedNotSplit() {
        var buffer = CellBuffer(columns: 5, rows: 1)
        let end = buffer.write("abcd日", column: 0, row: 0)
        XCTAssertEqual(end, 5)
        XCTAssertEqual(buffer.line(0), "abcd ")
        buffer._checkInvariants()
    }

    func testOverwritingHalfAWideClusterBlanksTheOtherHalf() {
        var buffer = CellBuffer(columns: 4, rows: 1)
        buffer.write("日本", column: 0, row: 0)
        buffer.write("x", column: 1, row: 0)   // right half of 日
        XCTAssertEqual(buffer.line(0), " x本")
        buffer.write("y", column: 2, row: 0)   // left half of 本
        XCTAssertEqual(buffer.line(0), " xy ")
        buffer._checkInvariants()
    }

    func testControlCharactersBecomeVisiblePlaceholders() {
        var buffer = CellBuffer(columns: 20, rows: 1)
        buffer.write("a\u{1B}[31mb\u{07}\u{7F}\u{9B}c", column: 0, row: 0)
        XCTAssertEqual(buffer.line(0).prefix(9), "a␛[31mb␇␡")
        XCTAssertEqual(buffer[9, 0].text, "\u{FFFD}")   // C1 CSI
        buffer._checkInvariants()
        for x in 0..<20 {
            for scalar in buffer[x, 0].text.unicodeScalars {
                XCTAssertFalse(scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value), "control in cell \(x)")
            }
        }
    }

    func testBidiAndInvisibleFormatCharactersArePlaceholders() {
        for scalar in ["\u{202E}", "\u{2066}", "\u{200F}", "\u{200B}", "\u{2028}", "\u{FEFF}", "\u{061C}"] {
            let clusters = DisplayWidth.clusters(of: "a" + scalar + "b")
            XCTAssertTrue(clusters.contains { $0.text == "\u{FFFD}" }, "U+\(String(scalar.unicodeScalars.first!.value, radix: 16)) was not replaced")
            XCTAssertFalse(clusters.contains { $0.text.unicodeScalars.contains(scalar.unicodeScalars.first!) })
        }
    }

    func testCombiningMarksAreCappedAtFour() {
        let clusters = DisplayWidth.clusters(of: "e\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}")
        XCTAssertEqual(clusters.count, 1)
        XCTAssertEqual(clusters[0].width, 1)
        XCTAssertEqual(clusters[0].text.unicodeScalars.count, 1 + DisplayWidth.maxCombiningMarks)
    }

    func testLoneCombiningMarkSitsOnADottedCircle() {
        XCTAssertEqual(DisplayWidth.clusters(of: "\u{301}"), [DisplayCluster(text: "\u{25CC}\u{301}", width: 1)])
    }

    /// Outside an emoji sequence a joiner joins nothing a cell shows, and tmux would merge the
    /// next character into its cell (a row one column short): it stays out of the cells. After a
    /// letter of a script that spells with joiners it goes silently; after a Latin letter it only
    /// hides, and shows as U+FFFD like other invisible format characters.
    func testAJoinerOutsideEmojiNeverReachesACell() {
        XCTAssertEqual(DisplayWidth.clusters(of: "a\u{200D}b"),
                       [DisplayCluster(text: "a", width: 1), DisplayCluster(text: "\u{FFFD}", width: 1), DisplayCluster(text: "b", width: 1)])
        XCTAssertEqual(DisplayWidth.clusters(of: "क्\u{200D}ष").map(\.text), ["क्", "ष"])
        XCTAssertEqual(DisplayWidth.clusters(of: "\u{200D}x").map(\.text), ["\u{FFFD}", "x"], "with nothing before it, it shows as others do")
        var buffer = CellBuffer(columns: 8, rows: 1)
        XCTAssertEqual(buffer.write("a\u{200D}b क्\u{200D}ष", column: 0, row: 0), 6)
        for x in 0..<8 { buffer[x, 0].forEachScalar { XCTAssertNotEqual($0, "\u{200D}", "cell \(x)") } }
    }

    func testFlagsBecomeLettersAndZWJSequencesTheirComponents() {
        XCTAssertEqual(DisplayWidth.clusters(of: "🇫🇷").map(\.text), ["F", "R"])
        XCTAssertEqual(DisplayWidth.clusters(of: "👨‍👩‍👧").map(\.text), ["👨", "👩", "👧"])
        XCTAssertEqual(DisplayWidth.clusters(of: "👍🏽").map(\.text), ["👍"])
        XCTAssertEqual(DisplayWidth.clusters(of: "❤️").map(\.text), ["❤"])
        XCTAssertEqual(DisplayWidth.clusters(of: "❤️").map(\.width), [1])
        XCTAssertEqual(DisplayWidth.clusters(of: "1️⃣").map(\.text), ["1"])
    }

    func testDiffAppliedToOldBufferGivesNewBuffer() {
        var rng = SeededRandom(seed: 7)
        let samples = ["a", "日", "é", "👍", " ", "x\u{1B}", "本語", "🇯🇵", "ab"]
        for _ in 0..<200 {
            var old = CellBuffer(columns: 12, rows: 3)
            var new = old
            for _ in 0..<6 {
                old.write(samples[Int(rng.next() % UInt64(samples.count))], column: Int(rng.next() % 12), row: Int(rng.next() % 3))
                new.write(samples[Int(rng.next() % UInt64(samples.count))], column: Int(rng.next() % 12), row: Int(rng.next() % 3))
            }
            old._checkInvariants()
            new._checkInvariants()
            var patched = old
            let changes = new.changes(from: old)
            patched.apply(changes)
            XCTAssertEqual(patched, new)
            for change in changes { XCTAssertFalse(change.cells.first!.isContinuation) }
        }
    }

    func testDiffOfEqualBuffersIsEmpty() {
        var a = CellBuffer(columns: 8, rows: 2)
        a.write("日本 ok", column: 0, row: 1)
        XCTAssertEqual(a.changes(from: a), [])
        XCTAssertEqual(a.changes(from: nil).reduce(0) { $0 + $1.cells.count }, 16)
    }

    /// Trimming works on bytes but must drop exactly the trailing characters that are a space:
    /// a Prepend character (U+0D4E) forms one character with the space after it.
    func testTrimmedLinesDropTrailingSpaceCharacters() {
        var buffer = CellBuffer(columns: 6, rows: 5)
        for (row, text) in ["ab  ", "中 ", "\u{D4E}  ", "      ", "a b c "].enumerated() { buffer.write(text, column: 0, row: row) }
        let byCharacters = buffer.lines.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }
        XCTAssertEqual(buffer.trimmedLines, byCharacters)
        XCTAssertEqual(buffer.trimmedLines[0], "ab")
    }
}

final class TimestampTextTests: XCTestCase {
    func testMatchesFoundationAcrossEras() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        var rng = SeededRandom(seed: 3)
        for _ in 0..<2000 {
            let seconds = Double(Int64(rng.next() % 8_000_000_000) - 2_000_000_000)
            let date = Date(timeIntervalSince1970: seconds)
            XCTAssertEqual(TimestampText.utc(date), formatter.string(from: date), "at \(seconds)")
        }
        XCTAssertEqual(TimestampText.utc(Date(timeIntervalSince1970: 0)), "1970-01-01 00:00")
        XCTAssertEqual(TimestampText.utc(Date(timeIntervalSince1970: 951_782_400)), "2000-02-29 00:00")
    }

}
