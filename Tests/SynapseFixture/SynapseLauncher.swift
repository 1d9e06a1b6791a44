import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Launches `python -m synapse.app.homeserver` behind a parent-death watchdog.
///
/// The child's stdin is a pipe whose only write end the test process holds. A daemon thread in
/// the child reads stdin; at EOF (the test process exited or crashed, even by SIGKILL) it sends
/// the server SIGTERM, and exits hard 10 s later. So no Synapse outlives its test run.
enum SynapseLauncher {
    /// Python run as `-c`: unblocks every signal, starts the watchdog thread, then runs Synapse's
    /// main module in-process (same pid, so `kill(pid, …)` reaches Synapse itself).
    ///
    /// A child inherits the signal mask of the thread that spawned it, and Dispatch's worker
    /// threads block SIGTERM and the like: a Synapse launched from one (`startTogether`) would
    /// ignore `stop()`'s SIGTERM until the SIGKILL 10 s later.
    static let watchdogScript = """
        import os, runpy, signal, sys, threading, time
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        def watch():
            try:
                while sys.stdin.buffer.read(4096):
                    pass
            except Exception:
                pass
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(10)
            os._exit(1)
        threading.Thread(target=watch, daemon=True).start()
        sys.argv[0] = "synapse.app.homeserver"
        runpy.run_module("synapse.app.homeserver", run_name="__main__", alter_sys=True)
        """

    /// A running child and the write end that keeps it alive.
    struct Launched {
        let process: Process
        let lifeline: Pipe
    }

    /// Starts Synapse with `config`, working directory = its directory, output to its process log.
    static func launch(python: URL, config: HomeserverConfig) throws -> Launched {
        _ = FileManager.default.createFile(atPath: config.processLog.path, contents: nil)
        let output = try FileHandle(forWritingTo: config.processLog)
        output.seekToEndOfFile()
        let lifeline = Pipe()
        // Keep the write end out of any other child this test process spawns.
        _ = fcntl(lifeline.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", watchdogScript, "-c", config.configFile.path]
        process.currentDirectoryURL = config.directory
        process.standardInput = lifeline
        process.standardOutput = output
        process.standardError = output
        do {
            try process.run()
        } catch {
            throw SynapseFixtureError("launching \(python.path) -m synapse.app.homeserver failed: \(error)")
        }
        try? output.close()
        try? lifeline.fileHandleForReading.close()
        return Launched(process: process, lifeline: lifeline)
    }
}
