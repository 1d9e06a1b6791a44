import Foundation
import XCTest

/// The supervisor dies or is asked to quit in ways it cannot clean up after (SIGKILL, a signal
/// it does not handle, SIGQUIT): the client never stays behind on the shell's terminal.
final class TmuxParentDeathTests: XCTestCase {
    /// Whether a process has ended (gone, or a zombie nobody reaped yet).
    private func hasEnded(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.range(of: ")", options: .backwards) else { return true }
        return stat[close.upperBound...].split(separator: " ").first == "Z"
    }

    func testAKilledSupervisorTakesTheClientDownAndGivesTheTerminalBack() throws {
        for signal in [SIGKILL, SIGUSR1] {
            let tmux = try TmuxSession()
            try tmux.startClient()
            try tmux.literal("unsent draft")
            try tmux.waitFor("the draft in the composer") { $0.contains { $0.contains("› unsent draft") } }
            let worker = try tmux.workerPID()
            kill(try tmux.supervisorPID(), signal)
            try Waiting.until("the client to notice its supervisor is gone (signal \(signal))") { hasEnded(worker) }
            try Waiting.until("the alternate screen and mouse off", state: { (try? tmux.format("#{alternate_on} #{mouse_any_flag}")) ?? "" }) {
                try tmux.format("#{alternate_on} #{mouse_any_flag} #{mouse_button_flag} #{mouse_sgr_flag}") == "0 0 0 0"
            }
            // The shell's own "Killed" and prompt went to the alternate screen, which is gone.
            try tmux.waitFor("the client's parting line") { $0.contains { $0.contains("comment-tui: quit because its supervisor process ended") } }
            try tmux.assertLineModeBack()
            // The draft was saved on the way out.
            try tmux.startClient()
            try tmux.waitFor("the draft restored") { $0.contains { $0.contains("› unsent draft") } }
        }
    }

    func testAWorkerWhoseSupervisorDiedBeforeItStartedExitsAtOnce() throws {
        // The race: the supervisor dies between spawning the worker and the worker asking for
        // the parent-death signal, so no signal comes. The worker compares its parent's pid.
        let tmux = try TmuxSession()
        try tmux.run("COMMENT_TUI_WORKER=1 COMMENT_TUI_SUPERVISOR_PID=1 \(TmuxSession.clientPath); echo EXIT=$?")
        let screen = try tmux.waitFor("the worker to refuse") { $0.contains { $0.range(of: "^EXIT=[0-9]", options: .regularExpression) != nil } }
        XCTAssertTrue(screen.contains("EXIT=1"), screen.joined(separator: "\n"))
        XCTAssertTrue(screen.contains { $0.contains("the supervisor ended before the client started") }, screen.joined(separator: "\n"))
        XCTAssertEqual(try tmux.format("#{alternate_on} #{mouse_any_flag}"), "0 0")
    }

    func testSIGQUITQuitsCleanlyWithoutABacktrace() throws {
        for target in ["supervisor", "worker"] {
            let tmux = try TmuxSession()
            try tmux.startClient()
            kill(target == "supervisor" ? try tmux.supervisorPID() : try tmux.workerPID(), SIGQUIT)
            try tmux.waitFor("exit after SIGQUIT to the \(target)", timeout: 30) { $0.contains { $0.range(of: "^EXIT=[0-9]", options: .regularExpression) != nil } }
            let text = try tmux.screen(withHistory: true).joined(separator: "\n")
            XCTAssertTrue(text.contains("EXIT=0"), text)
            XCTAssertFalse(text.contains("crashed") || text.contains("Backtrace") || text.contains("Thread 0"), "a backtrace on the screen:\n\(text)")
            XCTAssertEqual(try tmux.format("#{alternate_on} #{mouse_any_flag}"), "0 0")
            try tmux.assertLineModeBack()
        }
    }
}
