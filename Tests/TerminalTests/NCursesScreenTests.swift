import XCTest
@testable import CommentTUI
import ThreadModel
#if canImport(Glibc)
import Glibc
#endif

/// The ncurses backend without a terminal: `newterm` on a `tmpfile()`, cells read back.
/// XCTest runs these one at a time in one process, as ncurses needs.
final class NCursesScreenTests: XCTestCase {
    var output: UnsafeMutablePointer<FILE>!
    var input: UnsafeMutablePointer<FILE>!
    var screen: NCursesScreen!

    override func setUpWithError() throws {
        output = try XCTUnwrap(tmpfile())
        input = try XCTUnwrap(fopen("/dev/null", "r"))
        screen = try NCursesScreen(terminalType: "xterm-256color", output: output, input: input, enableModes: false)
        screen.resize(columns: 40, rows: 10)
    }

    override func tearDown() {
        screen.end()
        fclose(output)
        fclose(input)
    }

    func bytesWritten() -> Int {
        fflush(output)
        return Int(ftell(output))
    }

    func tail(_ n: Int) -> [UInt8] {
        fflush(output)
        fseek(output, -n, SEEK_END)
        var bytes = [UInt8](repeating: 0, count: n)
        _ = fread(&bytes, 1, n, output)
        return bytes
    }

    /// What the screen wrote since `start`, as text.
    func written(since start: Int) -> String {
        let count = bytesWritten() - start
        return count > 0 ? String(decoding: tail(count), as: UTF8.self) : ""
    }

    func testAClusterDrawnWholeIsAPlaceholderToNcursesAndItsBytesFollow() {
        DisplayWidth.policy = .allIntact
        defer { DisplayWidth.policy = .substitute }
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        var buffer = CellBuffer(columns: 40, rows: 10)
        buffer.write("a " + family + " b", column: 0, row: 3, style: Theme.mention)
        let start = bytesWritten()
        screen.present(Frame(buffer: buffer, cursor: CursorPosition(column: 5, row: 8)), full: false)
        let text = written(since: start)
        XCTAssertEqual(screen.cellText(column: 2, row: 3)?.text, "\u{3000}", "ncurses measures a blank of the same width")
        XCTAssertEqual(screen.cellText(column: 4, row: 3)?.text, " ")
        // After a cluster with a joiner, the two columns after it again (tmux may have drawn a
        // joined character there, FrameWriteTests shows when).
        XCTAssertTrue(text.hasSuffix("\u{1B}[4;3H" + CellBuffer.sgr(Theme.mention) + family + "\u{1B}[0m"
                                     + "\u{1B}[4;5H" + CellBuffer.sgr(Theme.mention) + " b\u{1B}[0m\u{1B}[9;6H"),
                      "the real bytes at its place, then the cursor back where ncurses left it: \(text.debugDescription)")
    }

    func testBytesWrittenPastNcursesLookAsNcursesDrawsTheirCellsOnEightColours() throws {
        // TERM=screen has 8 colours and no italic: ncurses draws a colour past 7 as the default
        // one (its pair says so) and leaves italic out. The cluster and the cells rewritten after
        // its joiner must look the same, not carry `38;5;8` or `3` of their own.
        screen.end()
        screen = try NCursesScreen(terminalType: "screen", output: output, input: input, enableModes: false)
        screen.resize(columns: 40, rows: 10)
        XCTAssertEqual(screen.colorCount, 8)
        DisplayWidth.policy = GraphemePolicy(intact: [[.joiner]])
        defer { DisplayWidth.policy = .substitute }
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        let gray = CellStyle(.italic, foreground: .gray)
        var buffer = CellBuffer(columns: 40, rows: 10)
        buffer.write("a ", column: 0, row: 3)
        buffer.write(family + "b", column: 2, row: 3, style: gray)
        buffer.write("c", column: 5, row: 3, style: CellStyle(.bold, foreground: .red, background: .palette(200)))
        let start = bytesWritten()
        screen.present(Frame(buffer: buffer, cursor: nil), full: false)
        let text = written(since: start)
        XCTAssertTrue(text.contains("\u{1B}[4;3H\u{1B}[0m" + family + "\u{1B}[0m" + "\u{1B}[4;5H\u{1B}[0mb\u{1B}[0;1;31mc\u{1B}[0m"),
                      text.debugDescription)
        XCTAssertFalse(text.contains("38;5") || text.contains("48;5"), text.debugDescription)
    }

    func testSynchronizedOutputOnlyWhenTheTerminalHasItAndNotForTyping() {
        var buffer = CellBuffer(columns: 40, rows: 10)
        buffer.write("feed", column: 0, row: 2)
        var frame = Frame(buffer: buffer, cursor: nil)
        frame.composerRows = 8..<9
        screen.present(frame, full: true)
        func show(_ text: String, row: Int) -> String {
            let start = bytesWritten()
            frame.buffer.write(text, column: 0, row: row)
            screen.present(frame, full: false)
            return written(since: start)
        }
        XCTAssertFalse(show("moved", row: 3).contains("\u{1B}[?2026h"), "not before the terminal answers")
        screen.modeReported(mode: 2026, value: 0)
        XCTAssertFalse(screen.synchronizesOutput, "0: the terminal does not know the mode")
        screen.modeReported(mode: 2026, value: 2)
        XCTAssertTrue(screen.synchronizesOutput)
        let scrolled = show("again", row: 4)
        XCTAssertTrue(scrolled.hasPrefix("\u{1B}[?2026h") && scrolled.hasSuffix("\u{1B}[?2026l"), scrolled.debugDescription)
        let typed = show("x", row: 8)
        XCTAssertFalse(typed.contains("2026"), "a frame that changes only the composer is not wrapped")
        XCTAssertLessThan(typed.utf8.count, 10)
    }

    func testAScrollHintMovesTheRegionAndWritesOnlyWhatIsNew() {
        var first = CellBuffer(columns: 40, rows: 10)
        first.write("header", column: 0, row: 0)
        for row in 2..<8 { first.write("line \(row)", column: 1, row: row) }
        first.write("composer", column: 0, row: 9)
        screen.present(Frame(buffer: first, cursor: nil), full: true)
        // The region 2..<8 scrolls up by two; two new lines come in at the bottom.
        var second = first.shiftingRows(2..<8, up: 2)
        second.write("line 8", column: 1, row: 6)
        second.write("line 9", column: 1, row: 7)
        var frame = Frame(buffer: second, cursor: nil)
        frame.scroll = FrameScroll(rows: 2..<8, shift: 2)
        let start = bytesWritten()
        screen.present(frame, full: false)
        let hinted = bytesWritten() - start
        for row in 0..<10 {
            let expected = (0..<40).map { second[$0, row].text }.joined()
            let shown = (0..<40).map { screen.cellText(column: $0, row: row)?.text ?? "?" }.joined()
            XCTAssertEqual(shown, expected, "row \(row)")
        }
        XCTAssertEqual(second.rows, 10)
        XCTAssertLessThan(hinted, 60, "a scroll and two short lines, not six rows redrawn")
        // A wrong hint still ends in the right picture: the diff is against the shifted copy.
        var third = second
        third.write("changed", column: 1, row: 3)
        var wrong = Frame(buffer: third, cursor: nil)
        wrong.scroll = FrameScroll(rows: 2..<8, shift: -3)
        screen.present(wrong, full: false)
        for row in 0..<10 {
            let expected = (0..<40).map { third[$0, row].text }.joined()
            let shown = (0..<40).map { screen.cellText(column: $0, row: row)?.text ?? "?" }.joined()
            XCTAssertEqual(shown, expected, "row \(row) after a wrong hint")
        }
    }

    func testCellsReadBackAsWritten() {
        var buffer = CellBuffer(columns: 40, rows: 10)
        buffer.write("plain 日本 é", column: 0, row: 0)
        buffer.write("bold", column: 3, row: 2, style: CellStyle(.bold, foreground: .cyan))
        buffer.write("x\u{1B}y", column: 0, row: 9)
        buffer.write("z", column: 39, row: 9)   // bottom-right corner
        screen.present(Frame(buffer: buffer, cursor: CursorPosition(column: 1, row: 1)), full: true)
        XCTAssertEqual(screen.size.columns, 40)
        XCTAssertEqual(screen.cellText(column: 0, row: 0)?.text, "p")
        XCTAssertEqual(screen.cellText(column: 6, row: 0)?.text, "日")
        XCTAssertEqual(screen.cellText(column: 8, row: 0)?.text, "本")
        XCTAssertEqual(screen.cellText(column: 11, row: 0)?.text, "e\u{301}")
        XCTAssertEqual(screen.cellText(column: 3, row: 2)?.text, "b")
        XCTAssertEqual(screen.cellText(column: 3, row: 2)?.bold, true)
        XCTAssertEqual(screen.cellText(column: 2, row: 2)?.bold, false)
        XCTAssertEqual(screen.cellText(column: 1, row: 9)?.text, "␛")
        XCTAssertEqual(screen.cellText(column: 39, row: 9)?.text, "z")
        XCTAssertGreaterThan(bytesWritten(), 0)
    }

    func testOnlyChangesAreWritten() {
        var buffer = CellBuffer(columns: 40, rows: 10)
        for row in 0..<10 { buffer.write(String(repeating: "abcd", count: 10), column: 0, row: row) }
        screen.present(Frame(buffer: buffer, cursor: nil), full: true)
        let afterFull = bytesWritten()
        XCTAssertGreaterThan(afterFull, 400)
        buffer.write("Z", column: 5, row: 5)
        screen.present(Frame(buffer: buffer, cursor: nil), full: false)
        let delta = bytesWritten() - afterFull
        XCTAssertGreaterThan(delta, 0)
        XCTAssertLessThan(delta, 20, "one changed cell costs a cursor move and a character")
        XCTAssertEqual(screen.cellText(column: 5, row: 5)?.text, "Z")
        screen.present(Frame(buffer: buffer, cursor: nil), full: false)
        XCTAssertEqual(bytesWritten() - afterFull, delta, "an unchanged frame writes nothing: \(tail(bytesWritten() - afterFull))")
    }

    func testNoControlByteFromContentReachesTheOutput() throws {
        var buffer = CellBuffer(columns: 40, rows: 10)
        buffer.write("\u{1B}]0;pwned\u{07}\u{9B}31m\u{202E}evil", column: 0, row: 0)
        screen.present(Frame(buffer: buffer, cursor: nil), full: true)
        fflush(output)
        rewind(output)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&chunk, 1, chunk.count, output)
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertFalse(text.contains("\u{1B}]0;pwned"), "an OSC from content reached the terminal")
        XCTAssertFalse(text.contains("\u{07}"))
        XCTAssertFalse(text.unicodeScalars.contains("\u{9B}"))
        XCTAssertFalse(text.unicodeScalars.contains("\u{202E}"))
        XCTAssertTrue(text.contains("pwned"))
    }
}

