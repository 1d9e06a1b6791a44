import Foundation
import XCTest
@testable import CommentTUI
import ThreadModel
#if canImport(Glibc)
import Glibc
#endif

/// A terminal that reports 65,535 x 65,535 (the most TIOCGWINSZ can say; tmux cannot be made
/// that large, a pty can): the client clamps the size to `TerminalDevice.maxColumns` x
/// `maxRows` and draws a whole screen there, at start and after a resize (issue 36: ncurses,
/// which keeps sizes in a `short`, crashed with SIGSEGV).
final class HugeTerminalSizeTests: XCTestCase {
    private let largest = Int(UInt16.max)

    /// The rows and columns of every `CSI row ; column H` in `text`.
    private func cursorAddresses(_ text: String) -> [(row: Int, column: Int)] {
        let pattern = try! NSRegularExpression(pattern: "\u{1B}\\[([0-9]+);([0-9]+)H")
        let range = NSRange(text.startIndex..., in: text)
        return pattern.matches(in: text, range: range).map { match in
            let number = { (n: Int) in Int(text[Range(match.range(at: n), in: text)!])! }
            return (number(1), number(2))
        }
    }

    private func worker(of client: Process) throws -> Int32 {
        let supervisor = client.processIdentifier
        let children = try String(contentsOfFile: "/proc/\(supervisor)/task/\(supervisor)/children", encoding: .utf8)
        return try XCTUnwrap(children.split(separator: " ").first.flatMap { Int32($0) }, "the worker")
    }

    /// What the client drew on the alternate screen, from `offset` on.
    private func screenOutput(_ terminal: FakeTerminal, from offset: Int = 0) -> String {
        String(decoding: terminal.bytes.dropFirst(offset), as: UTF8.self).components(separatedBy: "\u{1B}[?1049h").last ?? ""
    }

    func testAClientStartedOnA65535RowTerminalDrawsAClampedScreen() throws {
        let terminal = try FakeTerminal(answers: false) { _ in 1 }
        let (client, home) = try terminal.startClient(rows: largest, columns: largest, comments: ["the newest comment"])
        defer { terminal.stop(client, home: home) }
        try Waiting.until("the first frame, status bar included", state: { String(terminal.output.suffix(2000)).debugDescription }) {
            terminal.output.contains("the newest comment") && terminal.output.contains("@ann · thread.jsonl") || !client.isRunning
        }
        try terminal.waitUntilQuiet(for: 1)
        XCTAssertTrue(client.isRunning, "the client is still running: \(String(terminal.output.suffix(3000)))")
        let addresses = cursorAddresses(screenOutput(terminal))
        XCTAssertLessThanOrEqual(addresses.map(\.row).max() ?? 0, TerminalDevice.maxRows)
        XCTAssertLessThanOrEqual(addresses.map(\.column).max() ?? 0, TerminalDevice.maxColumns)
        XCTAssertTrue(addresses.contains { $0.row >= TerminalDevice.maxRows - 1 }, "the composer and status bar at the clamped screen's foot")
    }

    /// `$LINES` and `$COLUMNS` size ncurses before the terminal is asked: 65,535 there is
    /// dropped, and the screen is the pty's 80 x 24.
    func testLinesAndColumnsOf65535InTheEnvironmentAreIgnored() throws {
        let terminal = try FakeTerminal(answers: false) { _ in 1 }
        let (client, home) = try terminal.startClient(comments: ["the newest comment"],
                                                      environment: ["LINES": "\(largest)", "COLUMNS": "\(largest)"])
        defer { terminal.stop(client, home: home) }
        try Waiting.until("the first frame, status bar included", state: { String(terminal.output.suffix(2000)).debugDescription }) {
            terminal.output.contains("the newest comment") && terminal.output.contains("@ann · thread.jsonl") || !client.isRunning
        }
        try terminal.waitUntilQuiet(for: 1)
        XCTAssertTrue(client.isRunning, "the client is still running: \(String(terminal.output.suffix(3000)))")
        let addresses = cursorAddresses(screenOutput(terminal))
        let lowest = try XCTUnwrap(addresses.map(\.row).max())
        XCTAssertTrue((22...24).contains(lowest), "drawn to the foot of the pty's 24 rows, not past them: \(lowest)")
        XCTAssertLessThanOrEqual(addresses.map(\.column).max() ?? 0, 80)
    }

    func testAResizeTo65535RowsWhileRunningDrawsAClampedScreen() throws {
        let terminal = try FakeTerminal(answers: false) { _ in 1 }
        let (client, home) = try terminal.startClient(comments: ["the newest comment"])
        defer { terminal.stop(client, home: home) }
        try Waiting.until("the first frame") { terminal.output.contains("@ann · thread.jsonl") }
        try terminal.waitUntilQuiet(for: 0.5)
        let before = terminal.bytes.count
        terminal.setSize(columns: largest, rows: largest)
        // The client's pty is not its controlling terminal here: the signal the kernel would send.
        kill(try worker(of: client), SIGWINCH)
        try Waiting.until("a frame at the new size", state: { String(self.screenOutput(terminal, from: before).suffix(2000)).debugDescription }) {
            self.cursorAddresses(self.screenOutput(terminal, from: before)).contains { $0.row >= TerminalDevice.maxRows - 1 } || !client.isRunning
        }
        try terminal.waitUntilQuiet(for: 1)
        XCTAssertTrue(client.isRunning, "the client is still running: \(String(terminal.output.suffix(3000)))")
        let addresses = cursorAddresses(screenOutput(terminal, from: before))
        XCTAssertLessThanOrEqual(addresses.map(\.row).max() ?? 0, TerminalDevice.maxRows)
        XCTAssertLessThanOrEqual(addresses.map(\.column).max() ?? 0, TerminalDevice.maxColumns)
        // And it still takes keys: typed text shows in the composer.
        let typed = terminal.bytes.count
        terminal.type("still here")
        try Waiting.until("the typed text") { self.screenOutput(terminal, from: typed).contains("still here") }
    }
}
