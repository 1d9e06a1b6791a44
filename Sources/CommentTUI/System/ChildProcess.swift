import Glibc
import ThreadModel

/// A child process started with `posix_spawn`.
struct ChildProcess {
    /// The child's process id.
    let pid: pid_t

    /// How a child ended.
    enum Termination: Equatable {
        case exited(Int32)
        case signaled(Int32)

        /// The end `waitpid`'s status word tells (the W* macros are not imported: decoded by hand).
        init(status: Int32) {
            let signal = status & 0x7F
            self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
        }
    }

    /// Starts `path` with arguments and environment; stdout and stderr go where given.
    static func spawn(path: String, arguments: [String], environment: [String], standardOutput: FileDescriptor? = nil, standardError: FileDescriptor?) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let standardOutput {
            posix_spawn_file_actions_adddup2(&actions, standardOutput.rawValue, 1)
        }
        if let standardError {
            posix_spawn_file_actions_adddup2(&actions, standardError.rawValue, 2)
        }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard result == 0 else { throw SystemError("spawn \(path)", code: result) }
        return ChildProcess(pid: pid)
    }

    /// Waits for the child to end; returns nil when a signal interrupted the wait.
    func wait() throws -> Termination? {
        var status: Int32 = 0
        let r = waitpid(pid, &status, 0)
        if r < 0 {
            if errno == EINTR { return nil }
            throw SystemError("waitpid")
        }
        return Termination(status: status)
    }

    /// The child's end if it has ended, without waiting (nil while it runs).
    func ended() throws -> Termination? {
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        if r < 0 {
            if errno == EINTR { return nil }
            throw SystemError("waitpid")
        }
        guard r == pid else { return nil }
        return Termination(status: status)
    }

    /// Sends a signal to the child.
    func send(_ signal: Int32) { kill(pid, signal) }

    /// The path of the running executable.
    static var currentExecutable: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
