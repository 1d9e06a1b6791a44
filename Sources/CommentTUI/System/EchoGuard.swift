import CLinux
import Glibc

/// Keeps a terminal's echo from staying off when a signal ends the process while echo is off
/// (Ctrl-C at a password prompt, the terminal closed, `kill`): the handlers put the saved
/// settings back, then the process ends by the same signal, as it would have. The handler and
/// the settings it puts back are C (`ctui_echo_guard_*` in CLinux): nothing in a signal
/// handler touches the Swift runtime.
enum EchoGuard {
    /// The signals that end a process at a prompt.
    static let endingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Runs `body` with `settings` (the terminal's settings before `body` changes them) put back
    /// on `fd` if one of `endingSignals` arrives; the previous handlers are restored after. A
    /// signal the process ignores (`nohup`) stays ignored.
    static func restoring<T>(_ settings: termios, on fd: Int32, _ body: () throws -> T) rethrows -> T {
        var settings = settings
        var previous: [(Int32, sigaction)] = []
        for signal in endingSignals {
            var old = sigaction()
            // Any of them arriving while the handler runs waits for it: the settings go back once.
            let installed = endingSignals.withUnsafeBufferPointer {
                ctui_echo_guard_install(fd, &settings, signal, $0.baseAddress, Int32($0.count), &old)
            }
            if installed == 1 { previous.append((signal, old)) }
        }
        defer {
            for (signal, old) in previous {
                var old = old
                ctui_echo_guard_remove(signal, &old)
            }
        }
        return try body()
    }
}
