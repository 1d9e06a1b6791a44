import Glibc
import ThreadModel

// The write end of the self-pipe, read by the async-signal-safe handler below.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

private func forwardSignalToPipe(_ signal: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = saved
}

/// Signals delivered as bytes on a pipe, so the loop sees them beside input in `poll()`.
///
/// The handler only writes the signal number; everything else happens in the loop. Handlers
/// are installed without `SA_RESTART`, and nothing ever blocks in `read()`, so a signal can
/// never leave the loop stuck in a call that resumed.
public final class SignalPipe {
    /// The end the loop polls.
    public let readEnd: FileDescriptor
    private let writeEnd: FileDescriptor
    private var installed: [Int32] = []
    /// Each routed signal's action from before it was first routed, for `remove`.
    private var actionsBefore: [Int32: sigaction] = [:]
    /// Signals read while waiting (`wait(timeout:)`), still to be drained.
    private var held: [Int32] = []

    /// Creates the pipe and routes the given signals into it.
    public init(signals: [Int32]) throws {
        let (r, w) = try FileDescriptor.pipe()
        r.setNonBlockingAndCloseOnExec()
        w.setNonBlockingAndCloseOnExec()
        readEnd = r
        writeEnd = w
        signalPipeWriteEnd = w.rawValue
        for signal in signals { install(signal) }
    }

    /// Routes one more signal into the pipe.
    public func install(_ signal: Int32) {
        var action = sigaction(), old = sigaction()
        action.__sigaction_handler.sa_handler = { forwardSignalToPipe($0) }
        sigemptyset(&action.sa_mask)
        // SIGCHLD comes whenever any child ends: a call elsewhere resumes rather than failing
        // with EINTR (`poll`, which the waits use, returns whatever the flag says).
        action.sa_flags = signal == SIGCHLD ? SA_RESTART : 0
        sigaction(signal, &action, &old)
        if actionsBefore[signal] == nil { actionsBefore[signal] = old }
        if !installed.contains(signal) { installed.append(signal) }
    }

    /// Gives a signal back its default action (e.g. SIGTSTP, to really stop).
    public static func setDefault(_ signal: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&action.sa_mask)
        sigaction(signal, &action, nil)
    }

    /// Stops the process group (this process and its supervisor) as Ctrl-Z would, and returns
    /// once it is continued, with SIGTSTP routed to the pipe again.
    public func stopProcessGroup() {
        Self.setDefault(SIGTSTP)
        kill(0, SIGTSTP)
        install(SIGTSTP)
    }

    /// The signals that arrived since the last call, in order.
    public func drain() -> [Int32] {
        let bytes = (try? readEnd.read(upTo: 256)) ?? []
        defer { held = [] }
        return held + bytes.map { Int32($0) }
    }

    /// Waits up to `timeout` seconds (nil: for ever) for a signal; returns those that came.
    /// They are kept for the next `drain()` too, except `SIGCHLD`, which only wakes the wait.
    func wait(timeout: Double? = nil) -> [Int32] {
        guard (try? Poll.readable([readEnd], timeout: timeout))?.isEmpty == false else { return [] }
        let arrived = ((try? readEnd.read(upTo: 256)) ?? []).map { Int32($0) }
        held += arrived.filter { $0 != SIGCHLD }
        return arrived
    }

    /// Gives `signal` the action it had before it was routed into the pipe, and stops routing it.
    func remove(_ signal: Int32) {
        if var old = actionsBefore.removeValue(forKey: signal) { sigaction(signal, &old, nil) } else { Self.setDefault(signal) }
        installed.removeAll { $0 == signal }
    }

    /// Restores default actions and closes the pipe.
    public func uninstall() {
        for signal in installed { Self.setDefault(signal) }
        installed = []
        signalPipeWriteEnd = -1
        readEnd.close()
        writeEnd.close()
    }
}
