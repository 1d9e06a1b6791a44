import Foundation
import XCTest
@testable import CommentTUI

/// Desktop notifications from the built client in a real terminal: tmux's pane plays a WezTerm
/// (`TERM_PROGRAM`; the pane's shell has no `TMUX` variable), every byte the client writes is
/// kept by `pipe-pane`, the focus reports are typed into it, and another process appends to the
/// thread file the client follows.
final class TmuxNotificationTests: XCTestCase {
    private var tmux: TmuxSession!
    private var thread: String { tmux.home.appendingPathComponent("design.jsonl").path }
    private var output: URL { tmux.home.appendingPathComponent("pane-output") }

    override func setUpWithError() throws {
        tmux = try TmuxSession(columns: 80, rows: 24)
        try verb(["new", thread, "--title", "Design review", "--as", "ann", "--name", "Ann"])
        try verb(["post", thread, "--as", "bob", "--name", "Bob", "--body", "hello"])
        try tmux.tmux(["pipe-pane", "-O", "-t", "0", "cat >> '\(output.path)'"])
    }

    override func tearDown() { tmux = nil }

    /// Runs a verb of the built client to its end (another writer of the thread).
    private func verb(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TmuxSession.clientPath)
        process.arguments = arguments
        process.environment = ["HOME": tmux.home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "comment-tui \(arguments.prefix(1))")
    }

    /// Everything the pane's programs wrote so far.
    private func written() -> String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

    /// The notification escapes (OSC 777) written so far.
    private func notifications() -> [String] {
        written().components(separatedBy: "\u{1B}]777;").dropFirst().map { piece in
            piece.range(of: "\u{1B}\\").map { String(piece[..<$0.lowerBound]) } ?? String(piece)
        }
    }

    /// Starts the client on the thread as ann in a terminal that says it is WezTerm.
    private func startClient(_ flags: String = "") throws {
        // xterm's description: a TERM naming tmux would (rightly) mean the bell.
        try tmux.run("TERM=xterm-256color TERM_PROGRAM=WezTerm \(TmuxSession.clientPath) '\(thread)' --as ann \(flags); echo EXIT=$?")
        try tmux.waitFor("the client's first screen") { $0.contains { $0.contains("Design review") } && $0.contains { $0.hasSuffix("hello") } }
        try Waiting.until("focus reports to be turned on", state: { self.written().debugDescription }) {
            self.written().contains("\u{1B}[?1004h")
        }
    }

    /// The terminal loses the focus: its report typed into the pane, then a realistic pause.
    private func focusOut() throws {
        try tmux.tmux(["send-keys", "-t", "0", "-H", "1b", "5b", "4f"])
        Thread.sleep(forTimeInterval: 1)
    }

    /// Bob mentions ann from another process; waits until the client shows it.
    private func mention(_ words: String, shown: String) throws {
        try verb(["post", thread, "--as", "bob", "--body", "@ann \(words)"])
        try tmux.waitFor("the mention on screen") { $0.contains { $0.contains(shown) } }
    }

    func testAMentionWhileUnfocusedRaisesOneNotificationAndFocusReportsEndAtExit() throws {
        try startClient()
        try focusOut()
        // The body tries to end the escape and start its own (title, bell, 8-bit ST).
        try mention("look \u{1B}]0;pwned\u{07}\u{9C};x\u{1B}\\ here", shown: "here")
        try Waiting.until("the notification", state: { self.written().debugDescription }) { !self.notifications().isEmpty }
        let first = try XCTUnwrap(notifications().first)
        XCTAssertTrue(first.hasPrefix("notify;Design review;Bob: @ann look "), first.debugDescription)
        XCTAssertTrue(first.hasSuffix(" here"), first.debugDescription)
        XCTAssertFalse(first.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, first.debugDescription)
        XCTAssertEqual(first.filter { $0 == ";" }.count, 2, "notify, title, body: no field of the body's own")

        // A second within the interval: shown, no notification.
        Thread.sleep(forTimeInterval: 1)
        try mention("second", shown: "second")
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(notifications().count, 1, written().debugDescription)

        try tmux.keys("C-c")
        try tmux.waitFor("the exit status") { $0.contains("EXIT=0") }
        let all = written()
        let lastOn = try XCTUnwrap(all.range(of: "\u{1B}[?1004h", options: .backwards))
        let lastOff = try XCTUnwrap(all.range(of: "\u{1B}[?1004l", options: .backwards), "focus reports turned off")
        XCTAssertLessThan(lastOn.upperBound, lastOff.lowerBound, "off after the last on")
    }

    func testNoNotifyRaisesNone() throws {
        try startClient("--no-notify")
        try focusOut()
        try mention("are you there", shown: "are you there")
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(notifications(), [], written().debugDescription)
        try tmux.keys("C-c")
        try tmux.waitFor("the exit status") { $0.contains("EXIT=0") }
    }
}
