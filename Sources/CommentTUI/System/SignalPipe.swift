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
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { forwardSignalToPipe($0) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(signal, &action, nil)
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
        return bytes.map { Int32($0) }
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
