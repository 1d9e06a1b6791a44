#if canImport(Glibc)
import Glibc
#endif
import ThreadModel

/// Runs the interactive client as a child process and cleans up after it, whatever happens.
///
/// The child's stderr goes to an unlinked log file while it owns the screen. When the child
/// ends, however it ends (a crash, SIGKILL), the supervisor restores the terminal settings and
/// modes it saved and replays the log, so a fatal error's message and backtrace are read on a
/// clean terminal instead of being lost on the alternate screen. Should the supervisor itself be
/// killed, the worker notices (`ParentWatch`), restores the terminal and exits.
enum Supervisor {
    /// Set in the child's environment so it knows to run the client itself.
    static let workerVariable = "COMMENT_TUI_WORKER"

    static func run(arguments: [String]) -> Int32 {
        let saved = TerminalDevice.saveSettings()
        let logFile: TemporaryFile
        do { logFile = try TemporaryFile() } catch { return fail("cannot create the error log: \(error)") }
        let log = logFile.descriptor
        var environment = ProcessEnvironment.entries.filter {
            !$0.hasPrefix(workerVariable + "=") && !$0.hasPrefix(ParentWatch.parentVariable + "=")
        }
        // The worker's pid check after it arms its parent-death signal needs ours.
        environment += ["\(workerVariable)=1", "\(ParentWatch.parentVariable)=\(getpid())"]
        if !environment.contains(where: { $0.hasPrefix("SWIFT_BACKTRACE=") }) {
            // Backtraces go to stderr (the log), never onto the screen, and never wait for a debugger.
            environment.append("SWIFT_BACKTRACE=enable=yes,interactive=no,color=no,output-to=stderr,registers=none,images=none")
        }
        let signals: SignalPipe
        let child: ChildProcess
        do {
            // SIGQUIT too: forwarded, it quits the client cleanly instead of printing a
            // backtrace over the screen and leaving the client behind.
            signals = try SignalPipe(signals: [SIGTERM, SIGHUP, SIGINT, SIGQUIT])
            child = try ChildProcess.spawn(path: ChildProcess.currentExecutable, arguments: arguments, environment: environment, standardError: log)
        } catch {
            return fail("cannot start the client: \(error)")
        }
        var termination: ChildProcess.Termination?
        while termination == nil {
            do {
                termination = try child.wait()
            } catch {
                return fail("\(error)")
            }
            if termination == nil {
                for signal in signals.drain() { child.send(signal) }
            }
        }
        signals.uninstall()
        if case .signaled = termination, let saved {
            TerminalDevice.restoreSettings(saved)
            // What the client had not read (keys meant for it, the terminal's answers to its
            // queries) is not the shell's to run.
            TerminalDevice.discardInput()
            FileDescriptor.standardInput.setNonBlocking(false)
            try? FileDescriptor.standardOutput.writeAll(Array(TerminalDevice.emergencyReset.utf8))
        }
        replay(log)
        logFile.close()
        switch termination! {
        case .exited(let code):
            return code
        case .signaled(let signal):
            let name = SignalName.of(signal)
            _ = fail("the client stopped on signal \(signal) (\(name)); the terminal was restored")
            return 128 + signal
        }
    }

    private static func replay(_ log: FileDescriptor) {
        try? log.seek(to: 0)
        while let chunk = try? log.read(upTo: 65536), !chunk.isEmpty {
            try? FileDescriptor.standardError.writeAll(chunk)
        }
    }

    static func fail(_ message: String) -> Int32 {
        try? FileDescriptor.standardError.writeAll(Array("comment-tui: \(message)\n".utf8))
        return 1
    }
}
