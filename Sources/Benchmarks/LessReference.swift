import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What `less` writes to scroll the same text back by one row: the reference the feed's row
/// scroll is held to. `less` runs under `script`, which gives it a pseudo-terminal of its own
/// (so it never reads the benchmark's terminal); the pty is sized with `stty`.
enum LessReference {
    /// Average bytes per `k` (back one line) over 40 presses, from the middle of the text less
    /// a page, as the client's figure is taken, and per page (`b` and `f` alternately, as the
    /// client's); nil when `less` or `script` cannot run here.
    static func scrollBytes(of text: String, columns: Int, rows: Int) -> (row: Int, page: Int)? {
        let path = NSTemporaryDirectory() + "comment-tui-bench-less-\(getpid()).txt"
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else { return nil }
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard case let (process, input, counter)? = start(file: path, columns: columns, rows: rows, keeping: false) else { return nil }
        defer { stop(process) }
        func send(_ keys: String) {
            input.fileHandleForWriting.write(Data(keys.utf8))
            counter.waitForQuiet()
        }
        counter.waitForQuiet(atLeast: 0.5)
        // Where the client's figure is taken: the middle of the text, then a page back.
        send("50p")
        send("b")
        let start = counter.total
        let presses = 40
        for _ in 0..<presses { send("k") }
        let perPress = (counter.total - start) / presses
        let pageStart = counter.total
        for n in 0..<10 { send(n % 2 == 0 ? "b" : "f") }
        let perPage = (counter.total - pageStart) / 10
        send("q")
        process.waitUntilExit()
        return perPress > 0 && perPage > 0 ? (perPress, perPage) : nil
    }
}

extension LessReference {
    /// Seconds `less` takes to find `pattern` searching back from the end of `file` (`G`, then
    /// `?pattern` and Return, timed from Return to the screen showing the match); nil when
    /// `less` or `script` cannot run here or the match never shows.
    static func searchSeconds(file: String, pattern: String, columns: Int, rows: Int) -> Double? {
        guard case let (process, input, counter)? = start(file: file, columns: columns, rows: rows, keeping: true) else { return nil }
        defer { stop(process) }
        func send(_ keys: String) { input.fileHandleForWriting.write(Data(keys.utf8)) }
        counter.waitForQuiet(atLeast: 0.5)
        send("G")
        counter.waitForQuiet(atLeast: 0.5)
        send("?" + pattern)
        counter.waitForQuiet()
        counter.startKeeping()
        let start = Date()
        send("\r")
        // The match line shows the pattern (in standout): the search is over.
        guard counter.waitForKept(Data(pattern.utf8), timeout: 300) else { return nil }
        let seconds = Date().timeIntervalSince(start)
        send("q")
        process.waitUntilExit()
        return seconds
    }
}

extension LessReference {
    /// Starts `less` on `file` in a pty of this size, its output counted (and, with `keeping`,
    /// kept for `waitForKept`); nil when it cannot run here.
    private static func start(file: String, columns: Int, rows: Int, keeping: Bool) -> (Process, Pipe, ByteCounter)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qfec", "stty rows \(rows) cols \(columns); exec less -+F -+X -+S -S \(file)", "/dev/null"]
        process.environment = ["TERM": "xterm-256color", "LANG": "C.UTF-8", "LESS": "", "LESSHISTFILE": "-", "PATH": "/usr/bin:/bin"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let counter = ByteCounter()
        if keeping {
            output.fileHandleForReading.readabilityHandler = { counter.add($0.availableData) }
        } else {
            output.fileHandleForReading.readabilityHandler = { counter.add($0.availableData.count) }
        }
        do { try process.run() } catch { return nil }
        return (process, input, counter)
    }

    /// Ends `less` if it still runs and stops reading its output.
    private static func stop(_ process: Process) {
        if process.isRunning { process.terminate() }
        (process.standardOutput as? Pipe)?.fileHandleForReading.readabilityHandler = nil
    }
}

/// Counts bytes arriving on another thread and waits for them to stop; keeps them when asked.
private final class ByteCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var lastArrival = Date()
    private var kept: Data?

    func add(_ n: Int) {
        lock.lock(); count += n; lastArrival = Date(); lock.unlock()
    }

    func add(_ data: Data) {
        lock.lock(); count += data.count; lastArrival = Date(); kept?.append(data); lock.unlock()
    }

    /// Keeps what arrives from now on (for `waitForKept`).
    func startKeeping() {
        lock.lock(); kept = Data(); lock.unlock()
    }

    /// Returns true once what was kept holds `bytes`, false after `timeout` seconds.
    func waitForKept(_ bytes: Data, timeout: Double) -> Bool {
        let begin = Date()
        while Date().timeIntervalSince(begin) < timeout {
            lock.lock(); let found = kept?.range(of: bytes) != nil; lock.unlock()
            if found { return true }
            usleep(5_000)
        }
        return false
    }

    var total: Int { lock.lock(); defer { lock.unlock() }; return count }

    /// Returns once nothing arrived for 150 ms (and at least `atLeast` seconds passed).
    func waitForQuiet(atLeast: Double = 0) {
        let begin = Date()
        while true {
            usleep(20_000)
            lock.lock(); let quietFor = Date().timeIntervalSince(lastArrival); lock.unlock()
            if quietFor > 0.15 && Date().timeIntervalSince(begin) >= atLeast { return }
        }
    }
}
