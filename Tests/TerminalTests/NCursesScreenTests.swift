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

    /// A screen laid out as the client's: a header row, the feed in rows 1..<7 with a scrollbar
    /// in the last column (its thumb two rows from `thumb`), the composer's rule, the composer
    /// with the caret parked after its text, and a reverse-video status bar.
    static func feedFrame(top: Int, thumb: Int, blankEvery: Int = 0, status: String = "idle") -> Frame {
        var buffer = CellBuffer(columns: 40, rows: 10)
        buffer.write("Thread title", column: 0, row: 0, style: CellStyle(.bold))
        for row in 1..<7 {
            let n = top + row
            if blankEvery == 0 || n % blankEvery != 0 {
                buffer.write("line \(n)", column: 2, row: row)
                buffer.write("@bo", column: 12, row: row, style: CellStyle(.bold, foreground: .cyan))
            }
            let inThumb = row >= thumb && row < thumb + 2
            buffer.write(inThumb ? "┃" : "│", column: 39, row: row)
        }
        buffer.write(repeating: "─", count: 40, column: 0, row: 7)
        buffer.write("› draft", column: 0, row: 8)
        buffer.write(" @ann · test · \(status) · comment \(top)", column: 0, row: 9, style: CellStyle(.reverse))
        var frame = Frame(buffer: buffer, cursor: CursorPosition(column: 7, row: 8))
        frame.composerRows = 8..<9
        return frame
    }

    /// Presents `frame` scrolled by `shift` rows of the feed from the last one and returns what was written.
    func step(_ frame: Frame, shift: Int) -> String {
        var frame = frame
        frame.scroll = FrameScroll(rows: 1..<7, shift: shift)
        let start = bytesWritten()
        screen.present(frame, full: false)
        for row in 0..<10 {
            let expected = (0..<40).map { frame.buffer[$0, row].text }.joined()
            let shown = (0..<40).map { screen.cellText(column: $0, row: row)?.text ?? "?" }.joined()
            XCTAssertEqual(shown, expected, "row \(row)")
        }
        return written(since: start)
    }

    func testRowStepsKeepTheScrollRegionSetAndScrollItWithoutMovingTheCursor() {
        screen.present(Self.feedFrame(top: 20, thumb: 3), full: true)
        let first = step(Self.feedFrame(top: 19, thumb: 3), shift: -1)
        XCTAssertTrue(first.contains("\u{1B}[2;7r"), "the feed's rows become the scroll region: \(first.debugDescription)")
        XCTAssertFalse(first.contains("\u{1B}[1;10r"), "and stay so: \(first.debugDescription)")
        for (top, shift) in [(18, -1), (17, -1), (18, 1), (19, 1)] {
            let text = step(Self.feedFrame(top: top, thumb: 3), shift: shift)
            XCTAssertFalse(text.contains(#/\x1B\[[0-9;]*r/#), "no region set or reset: \(text.debugDescription)")
            XCTAssertTrue(text.hasPrefix(shift < 0 ? "\u{1B}[T" : "\u{1B}[S"), "scrolled where the cursor is: \(text.debugDescription)")
        }
    }

    func testARowStepPutsTheParkedCaretBackByRestoringIt() {
        screen.present(Self.feedFrame(top: 20, thumb: 3), full: true)
        _ = step(Self.feedFrame(top: 19, thumb: 3), shift: -1)
        for top in [18, 17] {
            let text = step(Self.feedFrame(top: top, thumb: 3), shift: -1)
            XCTAssertTrue(text.hasSuffix("\u{1B}8"), "the caret restored (2 bytes): \(text.debugDescription)")
            XCTAssertFalse(text.contains("\u{1B}[9;8H"), "not moved to: \(text.debugDescription)")
        }
        // Typing moves the caret as before: ncurses' move after the echoed character.
        var typed = Self.feedFrame(top: 17, thumb: 3)
        typed.buffer.write("x", column: 7, row: 8)
        typed.cursor = CursorPosition(column: 8, row: 8)
        let start = bytesWritten()
        screen.present(typed, full: false)
        XCTAssertEqual(written(since: start), "x", "a keystroke's echo stays one byte")
    }

    func testBytesSentBetweenFramesThatMayMoveTheCursorEndTheCaretsRestoring() {
        screen.present(Self.feedFrame(top: 20, thumb: 3), full: true)
        _ = step(Self.feedFrame(top: 19, thumb: 3), shift: -1)
        screen.send("\u{1B}[?2026$p")   // a query leaves the cursor alone
        XCTAssertTrue(step(Self.feedFrame(top: 18, thumb: 3), shift: -1).hasSuffix("\u{1B}8"))
        screen.send("\r\u{1B}[6n")     // a carriage return moves it
        let text = step(Self.feedFrame(top: 17, thumb: 3), shift: -1)
        XCTAssertFalse(text.contains("\u{1B}8"), text.debugDescription)
        XCTAssertTrue(text.hasSuffix("\u{1B}[9;8H\u{1B}[m") || text.hasSuffix("\u{1B}[9;8H"), "moved to the caret: \(text.debugDescription)")
    }

    func testStyleChangesAreOneSequenceWithoutReselectingTheCharacterSet() {
        screen.present(Self.feedFrame(top: 20, thumb: 3), full: true)
        var frame = Self.feedFrame(top: 20, thumb: 3)
        frame.buffer.write("Ann", column: 2, row: 3, style: CellStyle(.bold, foreground: .cyan))
        frame.buffer.write(" · 2025", column: 5, row: 3, style: CellStyle(.dim))
        let start = bytesWritten()
        screen.present(frame, full: false)
        let text = written(since: start)
        XCTAssertFalse(text.contains("\u{1B}(B"), "the client never leaves the ASCII set: \(text.debugDescription)")
        XCTAssertTrue(text.contains("\u{1B}[1;36mAnn\u{1B}[0;2m · 2025"), text.debugDescription)
    }

    func testTheShellGetsTheWholeScreenBackAfterRowSteps() {
        screen.present(Self.feedFrame(top: 20, thumb: 3), full: true)
        _ = step(Self.feedFrame(top: 19, thumb: 3), shift: -1)
        let start = bytesWritten()
        screen.suspend()
        XCTAssertTrue(written(since: start).contains("\u{1B}7\u{1B}[1;10r\u{1B}8"), written(since: start).debugDescription)
        screen.resume()
        screen.present(Self.feedFrame(top: 19, thumb: 3), full: true)
        let again = step(Self.feedFrame(top: 18, thumb: 3), shift: -1)
        XCTAssertTrue(again.contains("\u{1B}[2;7r"), "set again after the shell had the screen: \(again.debugDescription)")
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

/// A terminal with scroll margins but no SD/SU (the Linux console): ncurses scrolls the feed
/// itself, and only its margins are left out once set.
final class NCursesScreenWithoutPanTests: XCTestCase {
    func testRowStepsKeepTheMarginsAndUseNcursesOwnScroll() throws {
        let output = try XCTUnwrap(tmpfile()), input = try XCTUnwrap(fopen("/dev/null", "r"))
        defer { fclose(output); fclose(input) }
        let screen = try NCursesScreen(terminalType: "linux", output: output, input: input, enableModes: false)
        defer { screen.end() }
        screen.resize(columns: 40, rows: 10)
        screen.present(NCursesScreenTests.feedFrame(top: 20, thumb: 3), full: true)
        for (n, top) in [19, 18, 17].enumerated() {
            var frame = NCursesScreenTests.feedFrame(top: top, thumb: 3)
            frame.scroll = FrameScroll(rows: 1..<7, shift: -1)
            fflush(output)
            let start = ftell(output)
            screen.present(frame, full: false)
            fflush(output)
            var bytes = [UInt8](repeating: 0, count: ftell(output) - start)
            fseek(output, start, SEEK_SET)
            _ = fread(&bytes, 1, bytes.count, output)
            let text = String(decoding: bytes, as: UTF8.self)
            XCTAssertTrue(text.contains("\u{1B}M"), "ncurses' reverse index: \(text.debugDescription)")
            XCTAssertEqual(text.contains("\u{1B}[2;7r"), n == 0, "the margins once: \(text.debugDescription)")
            XCTAssertFalse(text.contains("\u{1B}[1;10r"), "never reset: \(text.debugDescription)")
            for row in 0..<10 {
                let expected = (0..<40).map { frame.buffer[$0, row].text }.joined()
                let shown = (0..<40).map { screen.cellText(column: $0, row: row)?.text ?? "?" }.joined()
                XCTAssertEqual(shown, expected, "row \(row)")
            }
        }
    }
}
