import Foundation
import Glibc
import ThreadModel

/// Waits for the editor the draft was handed to, and ends that wait when the client must end:
/// the terminal hung up (SIGHUP: the window closed, `tmux kill-pane`) or the client was told to
/// quit (SIGTERM). The editor gets the signal too (it may have ignored the terminal's), then,
/// if it or a process it started is still there after `grace` seconds, SIGKILL: the client
/// never stays blocked on it, nor leaves it running on a terminal that is gone.
struct EditorWait {
    let child: ChildProcess
    /// The client's signals (SIGCHLD routed there as well); nil waits for the editor only.
    let signals: SignalPipe?
    /// How long an editor told to end has before it is killed.
    var grace = 2.0

    /// The signals that end the wait.
    static let ending: Set<Int32> = [SIGHUP, SIGTERM]

    /// The wait was ended by `signal`; the editor is gone.
    struct Ended: Error {
        var signal: Int32
    }

    /// The editor's end; throws `Ended` when a signal ended the wait.
    func run() throws -> ChildProcess.Termination {
        guard let signals else {
            var ended: ChildProcess.Termination?
            repeat { ended = try child.wait() } while ended == nil
            return ended!
        }
        while true {
            // Checked before each wait: SIGCHLD may have come before it was routed.
            if let ended = try child.ended() { return ended }
            if let signal = signals.wait().first(where: Self.ending.contains) {
                try end(after: signal)
                throw Ended(signal: signal)
            }
        }
    }

    /// Passes `signal` on to the editor and what it started (`sh -c` runs the editor as its
    /// child), then kills those still there after the grace time.
    private func end(after signal: Int32) throws {
        let started = Self.descendants(of: child.pid)
        child.send(signal)
        for pid in started { kill(pid, signal) }
        let clock = MonotonicClock.now
        let deadline = clock() + grace
        var childEnded = false
        while clock() < deadline {
            if !childEnded { childEnded = try child.ended() != nil }
            if childEnded, !started.contains(where: { kill($0, 0) == 0 }) { return }
            _ = signals?.wait(timeout: min(0.1, max(0, deadline - clock())))
        }
        for pid in started { kill(pid, SIGKILL) }
        guard !childEnded, try child.ended() == nil else { return }
        child.send(SIGKILL)
        var ended: ChildProcess.Termination?
        repeat { ended = try child.wait() } while ended == nil
    }

    /// The processes `pid` started, and theirs, from `/proc`.
    static func descendants(of pid: pid_t) -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        let children = tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        return children + children.flatMap { descendants(of: $0) }
    }
}
