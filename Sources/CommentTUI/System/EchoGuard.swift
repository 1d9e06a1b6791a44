import Glibc

// What the handler below puts back: the terminal's settings from before echo was turned off.
nonisolated(unsafe) private var guardedSettings = termios()
nonisolated(unsafe) private var guardedDescriptor: Int32 = -1

/// Puts the saved settings back and ends the process as the signal would have. Only
/// async-signal-safe calls: `tcsetattr`, `write`, `sigaction`, `raise`.
private func restoreEchoAndReraise(_ signal: Int32) {
    let saved = errno
    if guardedDescriptor >= 0 {
        _ = tcsetattr(guardedDescriptor, TCSANOW, &guardedSettings)
        // The shell's prompt starts on a line of its own, not after the password prompt.
        var newline: UInt8 = 0x0A
        _ = write(guardedDescriptor, &newline, 1)
    }
    var action = sigaction()
    action.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&action.sa_mask)
    sigaction(signal, &action, nil)
    errno = saved
    // Blocked while this handler runs: delivered, with its default action, as it returns.
    raise(signal)
}

/// Keeps a terminal's echo from staying off when a signal ends the process while echo is off
/// (Ctrl-C at a password prompt, the terminal closed, `kill`): the handlers put the saved
/// settings back, then the process ends by the same signal, as it would have.
enum EchoGuard {
    /// The signals that end a process at a prompt.
    static let endingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Runs `body` with `settings` (the terminal's settings before `body` changes them) put back
    /// on `fd` if one of `endingSignals` arrives; the previous handlers are restored after.
    static func restoring<T>(_ settings: termios, on fd: Int32, _ body: () throws -> T) rethrows -> T {
        guardedSettings = settings
        guardedDescriptor = fd
        var previous: [(Int32, sigaction)] = []
        for signal in endingSignals {
            var action = sigaction(), old = sigaction()
            action.__sigaction_handler.sa_handler = { restoreEchoAndReraise($0) }
            sigemptyset(&action.sa_mask)
            // Any of them arriving while the handler runs waits for it: the settings go back once.
            for other in endingSignals { sigaddset(&action.sa_mask, other) }
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, &old)
            // A signal the process was told to ignore (`nohup`) stays ignored.
            if unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self) == 1 { sigaction(signal, &old, nil) }
            previous.append((signal, old))
        }
        defer {
            for (signal, old) in previous {
                var old = old
                sigaction(signal, &old, nil)
            }
            guardedDescriptor = -1
        }
        return try body()
    }
}
