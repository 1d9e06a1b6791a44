import Foundation
import XCTest
@testable import CommentTUI
import ThreadModel
#if canImport(Glibc)
import Glibc
#endif

/// What the screen writes, played by a real terminal: frames go through `NCursesScreen` into a
/// file that a tmux pane shows as it grows (`tail -f` on a raw line), so every byte the client
/// saves (margins kept set, the caret restored, shorter attribute changes) is checked against
/// what tmux then shows, cell by cell and style by style, and where its cursor is.
final class TmuxFrameBytesTests: XCTestCase {
    var tmux: TmuxSession!
    var output: UnsafeMutablePointer<FILE>!
    var input: UnsafeMutablePointer<FILE>!
    var screen: NCursesScreen!

    override func setUpWithError() throws {
        tmux = try TmuxSession(columns: 40, rows: 10)
        let path = tmux.home.appendingPathComponent("frames").path
        output = try XCTUnwrap(fopen(path, "w"))
        input = try XCTUnwrap(fopen("/dev/null", "r"))
        screen = try NCursesScreen(terminalType: "tmux-256color", output: output, input: input, enableModes: false)
        screen.resize(columns: 40, rows: 10)
        try tmux.run("stty raw -echo -onlcr; exec tail -c +1 -s 0.02 -f \(path)")
    }

    override func tearDown() {
        screen?.end()
        if let output { fclose(output) }
        if let input { fclose(input) }
        tmux = nil
    }

    /// Presents `frame` and waits for tmux to show it, the cursor at the caret.
    func show(_ frame: Frame, full: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws {
        screen.present(frame, full: full)
        let expected = frame.buffer.trimmedLines
        var shown: [String] = []
        let caret = frame.cursor.map { "\($0.column),\($0.row)" }
        var cursor = ""
        _ = try Waiting.poll(timeout: 5) {
            shown = try tmux.screen()
            cursor = try tmux.format("#{cursor_x},#{cursor_y}")
            return shown == expected && (caret == nil || cursor == caret)
        }
        XCTAssertEqual(shown, expected, file: file, line: line)
        if let caret { XCTAssertEqual(cursor, caret, "the cursor is at the caret", file: file, line: line) }
    }

    /// The styled pane now, then after the same frame drawn whole: they must be the same.
    func assertEqualsAFullRedraw(_ frame: Frame, file: StaticString = #filePath, line: UInt = #line) throws {
        let partial = try tmux.styledCells()
        try show(frame, full: true, file: file, line: line)
        var redrawn: [[String]] = []
        _ = try Waiting.poll(timeout: 5) {
            redrawn = try tmux.styledCells()
            return redrawn == partial
        }
        XCTAssertEqual(redrawn, partial, "text, colours and attributes", file: file, line: line)
    }

    func testRowStepsWithAKeptRegionShowWhatAFullRedrawShows() throws {
        typealias Step = (top: Int, thumb: Int, shift: Int)
        var frame = NCursesScreenTests.feedFrame(top: 20, thumb: 3, blankEvery: 3)
        try show(frame, full: true)
        let steps: [Step] = [(19, 3, -1), (18, 3, -1), (17, 2, -1), (15, 2, -2), (16, 2, 1), (17, 3, 1), (20, 4, 3), (19, 4, -1)]
        for step in steps {
            frame = NCursesScreenTests.feedFrame(top: step.top, thumb: step.thumb, blankEvery: 3, status: "step \(step.top)")
            frame.scroll = FrameScroll(rows: 1..<7, shift: step.shift)
            try show(frame)
        }
        // A keystroke moves the caret; the next step restores the new place.
        frame.buffer.write("!", column: 7, row: 8)
        frame.cursor = CursorPosition(column: 8, row: 8)
        frame.scroll = nil
        try show(frame)
        var next = NCursesScreenTests.feedFrame(top: 18, thumb: 4, blankEvery: 3)
        next.buffer.write("!", column: 7, row: 8)
        next.cursor = CursorPosition(column: 8, row: 8)
        next.scroll = FrameScroll(rows: 1..<7, shift: -1)
        try show(next)
        try assertEqualsAFullRedraw(next)
    }

    func testAScrollReachingTheLastRowIsMadeWithWholeScreenMargins() throws {
        var first = CellBuffer(columns: 40, rows: 10)
        for row in 0..<10 { first.write("row \(row) of the first frame", column: 0, row: row) }
        try show(Frame(buffer: first, cursor: nil), full: true)
        // A step of rows 1..<7 leaves the margins set there...
        var second = first.shiftingRows(1..<7, up: -1)
        second.write("new row 1", column: 0, row: 1)
        var stepped = Frame(buffer: second, cursor: nil)
        stepped.scroll = FrameScroll(rows: 1..<7, shift: -1)
        try show(stepped)
        // ...and then rows 4..<10 move down one: ncurses inserts a line at row 4, which
        // within margins 1...6 would leave rows 7...9 where they were.
        var third = second.shiftingRows(4..<10, up: -1)
        third.write("inserted at row 4", column: 0, row: 4)
        try show(Frame(buffer: third, cursor: nil))
    }

    func testTheShellScrollsTheWholeScreenAfterRowSteps() throws {
        try show(NCursesScreenTests.feedFrame(top: 20, thumb: 3), full: true)
        var frame = NCursesScreenTests.feedFrame(top: 19, thumb: 3)
        frame.scroll = FrameScroll(rows: 1..<7, shift: -1)
        try show(frame)
        screen.suspend()
        // What a shell prints next scrolls the whole screen: its last line ends on the last row.
        let lines = (1...20).map { "shell line \($0)\r\n" }.joined()
        try FileDescriptor(rawValue: fileno(output)).writeAll(Array(lines.utf8))
        let shown = try tmux.waitFor("the shell's lines") { $0.contains("shell line 20") }
        XCTAssertEqual(shown.count, 10)
        XCTAssertEqual(Array(shown.suffix(2)), ["shell line 20", ""], shown.joined(separator: "\n"))
        XCTAssertEqual(shown.first, "shell line 12", shown.joined(separator: "\n"))
        screen.resume()
    }

    /// A whole cluster read back from ncurses while a step parks the caret (DECRC) must not
    /// move where ncurses believes the cursor is: the next step's relative moves start from it.
    func testStepsWithWholeClustersKeepTheCursorWhereNcursesBelievesItIs() throws {
        DisplayWidth.policy = .allIntact
        defer { DisplayWidth.policy = .substitute }
        func frame(top: Int, thumb: Int) -> Frame {
            var frame = NCursesScreenTests.feedFrame(top: top, thumb: thumb, status: "top \(top)")
            for row in 1..<7 where (top + row) % 3 == 0 { frame.buffer.write("\u{1F1EB}\u{1F1F7}", column: 20, row: row) }
            return frame
        }
        var current = frame(top: 20, thumb: 3)
        try show(current, full: true)
        for (top, thumb, shift) in [(19, 3, -1), (18, 3, -1), (18, 2, 0), (17, 2, -1), (17, 4, 0), (16, 4, -1), (16, 1, 0)] {
            current = frame(top: top, thumb: thumb)
            current.scroll = shift == 0 ? nil : FrameScroll(rows: 1..<7, shift: shift)
            try show(current)
        }
        try assertEqualsAFullRedraw(current)
    }

    /// With the feed's margins kept, ncurses' own moves out of the feed (from its last row down
    /// to the rule and the composer, with nothing written in the last column to make it move
    /// absolutely) must not scroll the feed or stop at its margin.
    func testMovesOutOfTheKeptMarginsLandWhereTheyAim() throws {
        var frame = NCursesScreenTests.feedFrame(top: 20, thumb: 3)
        try show(frame, full: true)
        frame = NCursesScreenTests.feedFrame(top: 19, thumb: 3)
        frame.scroll = FrameScroll(rows: 1..<7, shift: -1)
        try show(frame)
        for (n, row) in [6, 5, 6, 1, 6].enumerated() {
            // One word in a feed row, one in the draft: two rows apart, no last-column write.
            frame.scroll = nil
            frame.buffer.write("edit\(n)", column: 20, row: row)
            // The rule right below the feed's last row, at the same column: one row down.
            frame.buffer.write(n % 2 == 0 ? "═" : "─", column: 21, row: 7)
            frame.buffer.write("› draft \(n)", column: 0, row: 8)
            frame.cursor = CursorPosition(column: 9, row: 8)
            try show(frame)
        }
        try assertEqualsAFullRedraw(frame)
    }
}

