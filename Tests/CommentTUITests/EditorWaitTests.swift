import Foundation
import Glibc
import XCTest
@testable import CommentTUI

/// The wait for `$EDITOR` when SIGTERM or SIGHUP ends it (issue 36): the editor and what it
/// started are signalled, continued if stopped, killed after the grace time, and nothing else
/// is: not a process that was given the pid of one that ended meanwhile.
final class EditorWaitTests: XCTestCase {
    var signals: SignalPipe!

    override func setUpWithError() throws {
        signals = try SignalPipe(signals: [SIGTERM, SIGHUP])
        signals.install(SIGCHLD)
    }

    override func tearDown() {
        signals.uninstall()
    }

    func spawn(_ script: String) throws -> ChildProcess {
        try ChildProcess.spawn(path: "/bin/sh", arguments: ["sh", "-c", script], environment: [], standardError: nil)
    }

    /// Whether process `pid` is gone (or a zombie).
    func isGone(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
    }

    struct GaveUp: Error { var what: String }

    func until(_ what: String, timeout: Double = 10, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline else { throw GaveUp(what: what) }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Whether `pid` ignores SIGTERM (its `SigIgn` mask in `/proc`).
    func ignoresSIGTERM(_ pid: pid_t) -> Bool {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let mask = status.split(separator: "\n").first { $0.hasPrefix("SigIgn:") }?.split(separator: "\t").last
        return mask.flatMap { UInt64($0, radix: 16) }.map { $0 & (1 << (UInt64(SIGTERM) - 1)) != 0 } ?? false
    }

    /// The command lines of `pid`'s descendants.
    func descendantCommands(of pid: pid_t) -> [(pid: pid_t, command: String)] {
        EditorWait.descendants(of: pid).map { ($0, (try? String(contentsOfFile: "/proc/\($0)/cmdline", encoding: .utf8)) ?? "") }
    }

    /// Runs the wait, ended by `signal` (already in the pipe), and returns what it threw.
    func endedWait(_ child: ChildProcess, by signal: Int32, grace: Double) -> Int32? {
        kill(getpid(), signal)
        var wait = EditorWait(child: child, signals: signals)
        wait.grace = grace
        do {
            _ = try wait.run()
            return nil
        } catch let ended as EditorWait.Ended {
            return ended.signal
        } catch {
            XCTFail("\(error)")
            return nil
        }
    }

    func testSIGTERMEndsTheEditorAndKillsADescendantThatIgnoresItAfterTheGrace() throws {
        // The editor's shell ends on SIGTERM; the sleep it started ignores it.
        let child = try spawn("sh -c \"trap '' TERM; exec sleep 300\" & wait")
        var sleeper: pid_t = 0
        try until("the sleep to start") {
            sleeper = descendantCommands(of: child.pid).first { $0.command.hasPrefix("sleep") }?.pid ?? 0
            return sleeper != 0
        }
        defer { kill(sleeper, SIGKILL) }
        XCTAssertEqual(endedWait(child, by: SIGTERM, grace: 0.2), SIGTERM)
        XCTAssertThrowsError(try child.ended(), "the editor was waited for (no child left: ECHILD)")
        try until("the sleep killed") { isGone(sleeper) }
        XCTAssertTrue(isGone(sleeper))
    }

    func testAStoppedEditorIsContinuedAndTakesTheHangUp() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("editor-wait-\(getpid()).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        // An editor that saves on SIGHUP, stopped (as by Ctrl-Z in it) when the terminal hangs up.
        let child = try spawn("trap 'echo saved > \(file.path); exit 0' HUP; kill -STOP $$; sleep 300")
        try until("the editor to stop") {
            ((try? String(contentsOfFile: "/proc/\(child.pid)/stat", encoding: .utf8)) ?? "").split(separator: ")").last?.split(separator: " ").first == "T"
        }
        XCTAssertEqual(endedWait(child, by: SIGHUP, grace: 5), SIGHUP)
        XCTAssertEqual(try? String(contentsOf: file, encoding: .utf8), "saved\n", "the editor ran its hang-up handler, not SIGKILL")
    }

    func testAProcessGivenThePidOfAnEndedDescendantIsNotKilled() throws {
        guard access("/proc/sys/kernel/ns_last_pid", W_OK) == 0 else { throw XCTSkip("pids can be chosen as root only") }
        // The sleep ends on SIGTERM and its shell (which ignores it) reaps it and waits on.
        let child = try spawn("sleep 300 & trap '' TERM; wait; exec sleep 300")
        var sleeper: pid_t = 0
        try until("the sleep to start") {
            sleeper = descendantCommands(of: child.pid).first { $0.command.hasPrefix("sleep") }?.pid ?? 0
            return sleeper != 0
        }
        try until("the shell to ignore SIGTERM") { ignoresSIGTERM(child.pid) }
        var stranger: ChildProcess?
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let test = self
        Thread {
            _ = test.endedWait(child, by: SIGTERM, grace: 4)
            done.signal()
        }.start()
        try until("the sleep ended and reaped") { access("/proc/\(sleeper)", F_OK) != 0 }
        // Another process, started by someone else, is given the freed pid.
        for _ in 0..<50 where stranger == nil {
            try "\(sleeper - 1)".write(toFile: "/proc/sys/kernel/ns_last_pid", atomically: false, encoding: .utf8)
            let started = try ChildProcess.spawn(path: "/bin/sleep", arguments: ["sleep", "300"], environment: [], standardError: nil)
            if started.pid == sleeper { stranger = started } else { started.send(SIGKILL); _ = try started.wait() }
        }
        let other = try XCTUnwrap(stranger, "the freed pid was taken by another process each time")
        defer { other.send(SIGKILL); _ = try? other.wait() }
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertNil(try other.ended(), "the process given the pid is still running")
    }

    func testRemovingSIGCHLDGivesBackTheActionItHadBefore() throws {
        signals.remove(SIGCHLD)
        var ignore = sigaction(), old = sigaction(), now = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigaction(SIGCHLD, &ignore, &old)
        defer { sigaction(SIGCHLD, &old, nil) }
        signals.install(SIGCHLD)
        signals.remove(SIGCHLD)
        sigaction(SIGCHLD, nil, &now)
        XCTAssertEqual(unsafeBitCast(now.__sigaction_handler.sa_handler, to: Int.self), unsafeBitCast(SIG_IGN, to: Int.self))
    }
}
