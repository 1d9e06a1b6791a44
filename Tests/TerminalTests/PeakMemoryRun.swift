import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The built `comment-tui` run as a child with its output in a file, waited for with `wait4`
/// so the kernel's peak resident size of that child alone is known.
///
/// Bounded: a child still running after `timeout` seconds, or holding more than `killAboveMiB`,
/// is killed (SIGKILL, by its pid) and reported as such.
struct PeakMemoryRun {
    /// How it ended: its exit status, or nil when it was killed here.
    var status: Int32?
    /// Standard output and error together.
    var output: String
    /// The child's peak resident set, in MiB.
    var peakMiB: Double
    /// Seconds from start to end.
    var seconds: Double
    /// Why it was killed, if it was.
    var killedBecause: String?

    init(arguments: [String], environment: [String], stdinPath: String = "/dev/null", timeout: Double = 60,
         killAboveMiB: Double = 1500) throws {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("peak-\(UUID().uuidString)").path
        defer { unlink(outputPath) }
        let fd = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw TmuxTestError("cannot create \(outputPath)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdinPath, O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fd, 1)
        posix_spawn_file_actions_adddup2(&actions, fd, 2)
        let path = TmuxSession.clientPath
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let started = Date()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        close(fd)
        guard spawned == 0 else { throw TmuxTestError("cannot start \(path): \(spawned)") }
        var waitStatus: Int32 = 0
        var usage = rusage()
        killedBecause = nil
        while wait4(pid, &waitStatus, WNOHANG, &usage) == 0 {
            let resident = Self.residentMiB(of: pid)
            if Date().timeIntervalSince(started) > timeout {
                killedBecause = "still running after \(timeout) s"
            } else if resident > killAboveMiB {
                killedBecause = "resident set reached \(Int(resident)) MiB"
            }
            if killedBecause != nil {
                kill(pid, SIGKILL)
                _ = wait4(pid, &waitStatus, 0, &usage)
                break
            }
            usleep(20_000)
        }
        seconds = Date().timeIntervalSince(started)
        peakMiB = Double(usage.ru_maxrss) / 1024
        status = killedBecause == nil && waitStatus & 0x7F == 0 ? (waitStatus >> 8) & 0xFF : nil
        output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    /// VmRSS of a running process, in MiB (0 once it is gone).
    private static func residentMiB(of pid: pid_t) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kib = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kib / 1024
    }
}
