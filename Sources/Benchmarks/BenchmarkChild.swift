import Foundation

/// A benchmark's measured client, a process of its own (this executable with a child's
/// arguments) whose `HOME` and `XDG_*` folders are the benchmark's: its memory and CPU are
/// the client's alone, and its accounts and caches are where the benchmark put them.
enum BenchmarkChild {
    /// Runs `arguments` with `HOME` = `folder` and the XDG folders given (relative to it);
    /// returns the child's status and what it printed.
    static func run(_ arguments: [String], folder: String, config: String, cache: String, data: String, state: String) throws
        -> (status: Int32, printed: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = folder
        environment["XDG_CONFIG_HOME"] = "\(folder)/\(config)"
        environment["XDG_CACHE_HOME"] = "\(folder)/\(cache)"
        environment["XDG_DATA_HOME"] = "\(folder)/\(data)"
        environment["XDG_STATE_HOME"] = "\(folder)/\(state)"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, printed)
    }
}
