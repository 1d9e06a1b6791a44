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
    /// How long the wait goes on after SIGKILL (a process in uninterruptible sleep, e.g. on a
    /// dead network file system, dies only when that ends): the client exits regardless.
    var afterKill = 2.0

    /// The signals that end the wait.
    static let ending: Set<Int32> = [SIGHUP, SIGTERM]

    /// The wait was ended by `signal`; the editor is gone, or was sent SIGKILL.
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
    /// child), then kills those still there after the grace time. Those it started are not our
    /// children: each is held by a pidfd from when it is found, so no pid reused meanwhile is
    /// signalled. The editor itself is our child, and its pid stays ours until it is waited for.
    private func end(after signal: Int32) throws {
        var started = Self.open(Self.descendants(of: child.pid))
        defer { for process in started { process.close() } }
        // SIGCONT after: an editor stopped (Ctrl-Z in it, or a background read) takes the
        // signal only when it runs again.
        child.send(signal)
        child.send(SIGCONT)
        for process in started {
            process.send(signal)
            process.send(SIGCONT)
        }
        let clock = MonotonicClock.now
        var deadline = clock() + grace
        var childEnded = false
        while clock() < deadline {
            if !childEnded { childEnded = try child.ended() != nil }
            if childEnded, started.allSatisfy(\.hasEnded) { return }
            _ = signals?.wait(timeout: min(0.1, max(0, deadline - clock())))
        }
        // Found again: processes started during the grace time, under the editor or under one
        // that ended and left its children to init.
        let known = Set(started.map(\.pid))
        let roots = (childEnded ? [] : [child.pid]) + started.filter { !$0.hasEnded }.map(\.pid)
        started += Self.open(roots.flatMap(Self.descendants).filter { !known.contains($0) })
        for process in started { process.send(SIGKILL) }
        guard !childEnded, try child.ended() == nil else { return }
        child.send(SIGKILL)
        deadline = clock() + afterKill
        while clock() < deadline {
            if try child.ended() != nil { return }
            _ = signals?.wait(timeout: min(0.1, max(0, deadline - clock())))
        }
    }

    /// Pidfds for those of `pids` still there.
    static func open(_ pids: [pid_t]) -> [ProcessDescriptor] { pids.compactMap(ProcessDescriptor.init(pid:)) }

    /// The processes `pid` started, and theirs, from `/proc` (`task/*/children` needs a kernel
    /// built with CONFIG_PROC_CHILDREN, as the usual distributions' are; without it none are
    /// found, and only the editor itself is signalled).
    static func descendants(of pid: pid_t) -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        let children = tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        return children + children.flatMap { descendants(of: $0) }
    }
}
