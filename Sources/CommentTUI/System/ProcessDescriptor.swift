import CLinux
import Glibc

/// A process named by a pidfd, not by its pid: a signal sent through it reaches that process
/// or none, never one that was given its pid after it ended (a process that is not our child
/// can end and be reaped, and its pid reused, at any time).
struct ProcessDescriptor {
    let pid: pid_t
    private let fd: Int32

    /// The process `pid` is now; nil when it has already gone (or pidfds are not there: Linux
    /// before 5.3).
    init?(pid: pid_t) {
        let fd = ctui_pidfd_open(pid)
        guard fd >= 0 else { return nil }
        self.pid = pid
        self.fd = fd
    }

    /// Sends `signal` to the process, if it is still there.
    func send(_ signal: Int32) { _ = ctui_pidfd_send_signal(fd, signal) }

    /// Whether the process has ended (a pidfd turns readable when it does).
    var hasEnded: Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) != 0
    }

    func close() { _ = Glibc.close(fd) }
}
