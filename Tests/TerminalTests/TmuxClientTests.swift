import Foundation
import XCTest

/// The built client in a real terminal: tmux at 80x24, driven with send-keys.
final class TmuxClientTests: XCTestCase {
    /// The feed's rows below the collapsed header (title and rule), above the composer's rule.
    /// The scrollbar in the last column is left out: its thumb moves with the feed.
    func feedRows(_ screen: [String]) -> [String] {
        screen[2..<21].map { $0.last == "│" || $0.last == "┃" ? String($0.dropLast()) : $0 }
    }
    func isIdle(_ screen: [String]) -> Bool { screen.last!.contains(" · idle · ") }

    func testFirstScreenTypingScrollingAndWheel() throws {
        let tmux = try TmuxSession()
        try tmux.startClient()
        let first = try tmux.screen()
        XCTAssertTrue(first[0].contains("Scrolling like a phone, in a terminal · @tatiana · 61 comments"), first[0])
        XCTAssertTrue(first.contains { $0.contains("Last comment of the demo") }, "opens at the newest comment")
        XCTAssertTrue(first.last!.contains("@tatiana · demo.jsonl · idle"))
        XCTAssertEqual(try tmux.format("#{alternate_on} #{mouse_button_flag} #{mouse_sgr_flag}"), "1 1 1")

        try tmux.literal("hello 日本")
        try tmux.waitFor("typed text in the composer") { $0.contains("› hello 日本") }
        XCTAssertEqual(try tmux.format("#{cursor_x}"), "\(2 + 10)")

        // The first frames may still be settling (the header's snap): page from a resting screen.
        _ = try tmux.settledStyledCells()
        let before = feedRows(try tmux.screen())
        try tmux.keys("PPage")
        let paged = try tmux.waitFor("the feed to page up") { self.feedRows($0) != before && self.isIdle($0) }
        XCTAssertFalse(paged.contains { $0.contains("Last comment of the demo") })

        // An SGR wheel-down report at a feed row: decoded by the client, one notch scrolls three rows.
        try tmux.literal("\u{1B}[<65;10;10M")
        let wheeled = try tmux.waitFor("the wheel to scroll") { self.feedRows($0) != self.feedRows(paged) && self.isIdle($0) }
        XCTAssertEqual(Array(feedRows(paged)[3...]), Array(feedRows(wheeled)[..<16]), "moved by exactly three rows")

        try tmux.keys("C-Up")
        try tmux.waitFor("Ctrl-Up to scroll a row") { Array(self.feedRows($0)[1...]) == Array(self.feedRows(wheeled)[..<18]) && self.isIdle($0) }
    }

    func testAWheelBurstShowsItsPhasesInTheStatusBar() throws {
        let tmux = try TmuxSession()
        try tmux.startClient()
        let start = try tmux.screen()
        // Eight wheel-up notches at once: a fast burst that glides on after the last notch.
        try tmux.literal(String(repeating: "\u{1B}[<64;10;10M", count: 8))
        try tmux.waitFor("the glide after the burst") { $0.last!.contains(" · decelerating · ") }
        let rested = try tmux.waitFor("rest after the glide") { self.isIdle($0) }
        XCTAssertNotEqual(feedRows(rested), feedRows(start))
        XCTAssertFalse(rested.contains { $0.contains("Last comment of the demo") }, "momentum carried the feed away from the end")
    }

    func testCtrlCExitsZeroAndRestoresTheTerminal() throws {
        let tmux = try TmuxSession()
        try tmux.run("echo MARKER-BEFORE")
        try tmux.startClient()
        try tmux.keys("C-c")
        let screen = try tmux.waitFor("the exit status") { $0.contains("EXIT=0") }
        XCTAssertTrue(screen.contains("MARKER-BEFORE"), "the alternate screen was left")
        XCTAssertEqual(try tmux.format("#{alternate_on} #{mouse_any_flag} #{mouse_button_flag} #{mouse_sgr_flag}"), "0 0 0 0")
        try tmux.assertLineModeBack()
        // Bracketed paste is off: a pasted line reaches the shell without the 200~ markers.
        // Bash's readline turns bracketed paste on at its prompt: paste once `read` has the terminal.
        try tmux.run("echo READY; read -r line; printf 'GOT:%s\\n' \"$line\" | od -c | head -2 > \"$HOME/pasted\"")
        try tmux.waitFor("the shell to read") { $0.contains("READY") }
        try tmux.tmux(["set-buffer", "abc"])
        try tmux.tmux(["paste-buffer", "-p", "-t", "0"])
        try tmux.keys("Enter")
        try tmux.run("echo DONE")
        try tmux.waitFor("the paste check") { $0.contains("DONE") }
        let pasted = try String(contentsOf: tmux.home.appendingPathComponent("pasted"), encoding: .utf8)
        XCTAssertFalse(pasted.contains("033"), "escape bytes in a paste after exit: \(pasted)")
        XCTAssertTrue(pasted.contains("G   O   T   :   a   b   c"))
    }

    func testTheTerminalIsGivenBackBlockingAfterExit() throws {
        let tmux = try TmuxSession()
        // The flags are read in the same command line, before the shell touches the terminal.
        let check = "grep flags /proc/self/fdinfo/0"
        try tmux.run("\(TmuxSession.clientPath); \(check) > $HOME/after-exit; echo EXIT=$?")
        try tmux.waitFor("the client's first screen") { $0.contains { $0.contains("Scrolling like a phone") } }
        try tmux.keys("C-c")
        try tmux.waitFor("the exit status") { $0.contains("EXIT=0") }
        let flags = try String(contentsOf: tmux.home.appendingPathComponent("after-exit"), encoding: .utf8)
        let value = try XCTUnwrap(Int(flags.split(separator: "\t").last!.trimmingCharacters(in: .whitespacesAndNewlines), radix: 8))
        XCTAssertEqual(value & 0o4000, 0, "O_NONBLOCK left on the terminal: \(flags)")
    }

    func testF10AndCtrlDQuit() throws {
        let tmux = try TmuxSession()
        try tmux.startClient()
        try tmux.keys("F10")
        try tmux.waitFor("F10 to quit") { $0.contains("EXIT=0") }
        try tmux.startClient()
        try tmux.literal("x")
        try tmux.keys("BSpace", "C-d")
        try tmux.waitFor("Ctrl-D to quit") { $0.filter { $0.contains("EXIT=0") }.count == 2 }
    }

    func testTerminatingSignalsExitCleanly() throws {
        for signal in [SIGTERM, SIGHUP] {
            let tmux = try TmuxSession()
            try tmux.startClient()
            kill(try tmux.supervisorPID(), signal)
            try tmux.waitFor("exit after signal \(signal)") { $0.contains("EXIT=0") }
            XCTAssertEqual(try tmux.format("#{alternate_on} #{mouse_any_flag}"), "0 0")
            try tmux.assertLineModeBack()
        }
    }

    func testAFatalErrorIsReportedOnARestoredTerminal() throws {
        let tmux = try TmuxSession()
        try tmux.run("export \(TmuxSession.crashTestVariable)=1")
        try tmux.startClient()
        try tmux.keys("F12")
        let screen = try tmux.waitFor("the crash report", timeout: 60) { $0.contains { $0.range(of: "^EXIT=[0-9]", options: .regularExpression) != nil } }
        let text = try tmux.screen(withHistory: true).joined(separator: "\n")
        XCTAssertTrue(text.contains("Fatal error: crash test requested with F12"), text)
        XCTAssertTrue(text.contains("the client stopped on signal"), text)
        XCTAssertTrue(text.contains("Launcher") || text.contains("CommentApp"), "a backtrace is shown: \(text)")
        XCTAssertFalse(screen.contains("EXIT=0"))
        XCTAssertEqual(try tmux.format("#{alternate_on} #{mouse_any_flag}"), "0 0")
        try tmux.assertLineModeBack()
    }

    func testAKilledClientLeavesARestoredTerminal() throws {
        let tmux = try TmuxSession()
        try tmux.startClient()
        kill(try tmux.workerPID(), SIGKILL)
        let screen = try tmux.waitFor("the report", timeout: 30) { $0.contains { $0.range(of: "^EXIT=[0-9]", options: .regularExpression) != nil } }
        XCTAssertTrue(screen.contains { $0.contains("the client stopped on signal 9") }, screen.joined(separator: "\n"))
        XCTAssertTrue(screen.contains("EXIT=137"))
        XCTAssertEqual(try tmux.format("#{alternate_on} #{mouse_any_flag}"), "0 0")
        try tmux.assertLineModeBack()
    }

    func testSuspendAndResumeRedraws() throws {
        let tmux = try TmuxSession()
        try tmux.startClient()
        try tmux.literal("draft")
        try tmux.keys("C-z")
        try tmux.waitFor("the shell after Ctrl-Z") { $0.contains { $0.contains("Stopped") } }
        XCTAssertEqual(try tmux.format("#{alternate_on} #{mouse_any_flag}"), "0 0")
        // bash ends the `client; echo` list when the job stops; fg brings the client back.
        try tmux.run("fg; echo FG=$?")
        let screen = try tmux.waitFor("the redrawn client") { $0.contains("› draft") && $0[0].contains("Scrolling like a phone") }
        XCTAssertTrue(screen.last!.contains("demo.jsonl"))
        XCTAssertEqual(try tmux.format("#{alternate_on} #{mouse_button_flag}"), "1 1")
        try tmux.keys("C-c")
        try tmux.waitFor("exit") { $0.contains("FG=0") }
    }

    func testResizeRelaysOutAndTooSmallShowsANotice() throws {
        let tmux = try TmuxSession()
        try tmux.startClient()
        try tmux.tmux(["resize-window", "-t", "0", "-x", "50", "-y", "20"])
        try tmux.waitFor("a 50-column layout") { $0.count >= 20 && $0[1] == String(repeating: "─", count: 50) }
        try tmux.tmux(["resize-window", "-t", "0", "-x", "16", "-y", "6"])
        try tmux.waitFor("the too-small notice") { $0.contains { $0.contains("too small") } }
        try tmux.tmux(["resize-window", "-t", "0", "-x", "80", "-y", "24"])
        try tmux.waitFor("the full layout again") { $0[0].contains("Scrolling like a phone") && $0[1].count == 80 }
    }

    func testNonUTF8LocaleGetsAClearMessage() throws {
        let tmux = try TmuxSession()
        try tmux.run("LANG=C LC_ALL=C \(TmuxSession.clientPath); echo EXIT=$?")
        let screen = try tmux.waitFor("the locale message") { $0.contains { $0.range(of: "^EXIT=[0-9]", options: .regularExpression) != nil } }
        XCTAssertTrue(screen.contains { $0.contains("not UTF-8") }, screen.joined(separator: "\n"))
        XCTAssertTrue(screen.contains("EXIT=1"))
    }

    func testCommentsPostedByOthersAppearLiveAndOwnPostsOnce() throws {
        let tmux = try TmuxSession()
        let file = tmux.home.appendingPathComponent("live.jsonl").path
        let client = TmuxSession.clientPath
        try tmux.run("\(client) new \(file) --title 'Scrolling like a phone, live' --as ann --name Ann; echo NEW=$?")
        try tmux.waitFor("the new thread") { $0.contains("NEW=0") }
        try tmux.run("\(client) \(file) --as ann; echo EXIT=$?")
        try tmux.waitFor("the client") { $0.contains { $0.contains("Scrolling like a phone, live") } }
        // Another writer, outside the client.
        let post = Process()
        post.executableURL = URL(fileURLWithPath: client)
        post.arguments = ["post", file, "--as", "bo", "--name", "Bo", "--body", "hello from outside"]
        try post.run()
        post.waitUntilExit()
        XCTAssertEqual(post.terminationStatus, 0)
        try tmux.waitFor("the outside comment") { $0.contains("   hello from outside") }
        // Our own post: appended by the client, then seen again by its watch; shown once.
        try tmux.literal("my own words")
        try tmux.keys("Enter")
        try tmux.waitFor("our own comment, written") { $0.contains("   my own words") && $0.last!.contains("posted") }
        // The watch reads the file in order: once a later outside comment shows, it has read ours again.
        let later = Process()
        later.executableURL = URL(fileURLWithPath: client)
        later.arguments = ["post", file, "--as", "bo", "--name", "Bo", "--body", "later from outside"]
        try later.run()
        later.waitUntilExit()
        XCTAssertEqual(later.terminationStatus, 0)
        let screen = try tmux.waitFor("the later outside comment") { $0.contains("   later from outside") }
        XCTAssertEqual(screen.filter { $0 == "   my own words" }.count, 1, screen.joined(separator: "\n"))
        let text = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertEqual(text.components(separatedBy: "my own words").count - 1, 1, "written once to the file")
        try tmux.keys("C-c")
        try tmux.waitFor("exit") { $0.contains("EXIT=0") }
    }

    /// Waits until the next whole minute (the idle client's one wake-up, for relative times) is
    /// at least `seconds` away, and the last one half a second past.
    private func waitClearOfTheNextMinute(by seconds: Double) throws {
        try Waiting.until("\(seconds) s clear of the next whole minute", timeout: 8) {
            let second = Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 60)
            return second >= 0.5 && second <= 60 - seconds
        }
    }

    func testIdleClientUsesNoCPU() throws {
        let tmux = try TmuxSession()
        try tmux.startClient()
        let worker = try tmux.workerPID()
        try tmux.waitFor("the first frames to settle") { self.isIdle($0) }
        _ = try tmux.settledStyledCells()
        // The one wake-up at idle is at each whole minute (relative times): measure between two.
        try waitClearOfTheNextMinute(by: 5)
        let before = try cpuTicks(of: worker)
        try tmux.assertUnchanged(for: 2)
        let after = try cpuTicks(of: worker)
        XCTAssertEqual(after - before, 0, "CPU ticks used in 2 s of idling")
        try tmux.keys("C-c")
        try tmux.waitFor("exit") { $0.contains("EXIT=0") }
    }

    func testInTheDemoAnAnswerArrivesWithItsEffectsAndThenTheClientIdles() throws {
        let tmux = try TmuxSession()
        try tmux.startClient()
        let worker = try tmux.workerPID()
        try tmux.literal("hello, is anyone here?")
        try tmux.keys("Enter")
        // yuki answers 1.5 s later through the demo file, as another writer would.
        try tmux.waitFor("yuki's answer") { $0.contains { $0.contains("@tatiana welcome! A comment that arrives") } }
        let file = tmux.home.appendingPathComponent("data/comment-tui/demo.jsonl").path
        XCTAssertTrue(try String(contentsOfFile: file, encoding: .utf8).contains("@tatiana welcome!"), "written to the thread")
        // The transition (250 ms) and the mention's glow (2 s) end; then not a frame more.
        // The glow's steps are 0.33 s apart: at rest means the same for longer than a step.
        Thread.sleep(forTimeInterval: 2.2)
        _ = try tmux.settledStyledCells()
        try waitClearOfTheNextMinute(by: 4)
        // Up to three windows: the kernel once charged a lone 10 ms tick to a client at rest on
        // a loaded machine; one that keeps drawing or polling uses ticks in every window.
        var used: [Int] = []
        for _ in 0..<3 {
            let before = try cpuTicks(of: worker)
            try tmux.assertUnchanged(for: 1.5)
            used.append(try cpuTicks(of: worker) - before)
            if used.last == 0 { break }
        }
        XCTAssertEqual(used.last, 0, "CPU ticks used in each 1.5 s after the effects ended: \(used)")
        try tmux.keys("C-c")
        try tmux.waitFor("exit") { $0.contains("EXIT=0") }
    }

    /// User plus system time of a process, in clock ticks (from /proc/PID/stat).
    private func cpuTicks(of pid: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the parenthesised command name; utime and stime are the 14th and 15th.
        let fields = stat[stat.range(of: ")")!.upperBound...].split(separator: " ")
        return Int(fields[11])! + Int(fields[12])!
    }

}
