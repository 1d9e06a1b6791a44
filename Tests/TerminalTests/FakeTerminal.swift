import Foundation
import XCTest
@testable import CommentTUI
import ThreadModel
#if canImport(Glibc)
import Glibc
#endif

/// A pty whose master side plays a terminal: it reads what the probe writes and answers each
/// `ESC [ 6n` with the column the cursor reached, counting each cluster's width by `advance`,
/// and the primary device attributes query (`ESC [ c`) as xterm does.
final class FakeTerminal: @unchecked Sendable {
    let master: Int32
    let slave: FileDescriptor
    private var reader: Thread?
    private let lock = NSLock()
    private var written: [UInt8] = []
    /// When each chunk arrived (monotonic seconds), how many bytes had arrived by then, and
    /// whether the read took all there was (it returned less than it asked for).
    private var arrivals: [Chunk] = []
    typealias Chunk = (time: Double, total: Int, drained: Bool)
    var chunks: [Chunk] { lock.withLock { arrivals } }
    var bytes: [UInt8] { lock.withLock { written } }
    /// The bytes and the chunks they came in, taken together.
    var recording: (bytes: [UInt8], chunks: [Chunk]) { lock.withLock { (written, arrivals) } }

    /// Sends keys as if typed.
    func type(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }
    /// Everything the program wrote to the terminal so far.
    var output: String { lock.withLock { String(decoding: written, as: UTF8.self) } }

    /// Answers held back until `releaseAnswers()` (a slow terminal, or one far away).
    private var heldAnswers: [UInt8]?

    /// Sends the answers held back, and from now on answers at once. With `typed`, those keys
    /// come among them, after the answers to the first `reports` cursor position queries (a key
    /// pressed while the terminal answers).
    func releaseAnswers(typing typed: String = "", afterReports reports: Int = 0) {
        var held = lock.withLock { () -> [UInt8] in
            defer { heldAnswers = nil }
            return heldAnswers ?? []
        }
        // The cursor position reports are the only answers that end in R.
        let ends = held.indices.filter { held[$0] == UInt8(ascii: "R") }
        let cut = reports == 0 ? 0 : reports <= ends.count ? ends[reports - 1] + 1 : held.count
        held.insert(contentsOf: Array(typed.utf8), at: cut)
        _ = held.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Answers as `answers` says, or holds them back until `releaseAnswers()` with `holdsAnswers`.
    private func answer(_ text: String) {
        let bytes = Array(text.utf8)
        let sendNow = lock.withLock { () -> Bool in
            guard heldAnswers != nil else { return true }
            heldAnswers! += bytes
            return false
        }
        if sendNow { _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) } }
    }

    init(answers: Bool, reportsGraphemeMode: Int? = nil, holdsAnswers: Bool = false,
         advance: @escaping @Sendable (Character) -> Int) throws {
        if holdsAnswers { heldAnswers = [] }
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw SystemError("open /dev/ptmx") }
        var unlock: Int32 = 0, number: UInt32 = 0
        // TIOCSPTLCK and TIOCGPTN (Linux), which Swift's Glibc does not import.
        guard ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw SystemError("pty ioctl")
        }
        let fd = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard fd >= 0 else { throw SystemError("open pts") }
        slave = FileDescriptor(rawValue: fd)
        let master = master
        reader = Thread { [unowned self] in
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            var column = 1
            // Probes come before the screen is taken; after that nothing needs an answer (and
            // decoding a growing screen's worth of bytes at every read would fall behind).
            var probing = true
            while true {
                let n = read(master, &chunk, chunk.count)
                if n <= 0 { return }
                self.lock.withLock {
                    self.written += chunk[0..<n]
                    self.arrivals.append((MonotonicClock.now(), self.written.count, n < chunk.count))
                }
                guard probing else { continue }
                pending += chunk[0..<n]
                var text = String(decoding: pending, as: UTF8.self)
                // Act on complete pieces: text, CR, CSI 6n, DECRQM, DA1.
                while let next = text.first {
                    if next == "\r" { column = 1; text.removeFirst(); continue }
                    if next == "\u{1B}" {
                        if text.hasPrefix("\u{1B}[6n") {
                            text.removeFirst(4)
                            if answers { self.answer("\u{1B}[1;\(column)R") }
                        } else if text.hasPrefix("\u{1B}[?2027$p") {
                            text.removeFirst(9)
                            if let mode = reportsGraphemeMode { self.answer("\u{1B}[?2027;\(mode)$y") }
                        } else if text.hasPrefix("\u{1B}[c") {
                            text.removeFirst(3)
                            if answers { self.answer("\u{1B}[?62;22c") }
                        } else if text.hasPrefix("\u{1B}[2K") {
                            text.removeFirst(4)
                        } else if text.hasPrefix("\u{1B}[?1049h") {
                            probing = false
                            text = ""
                        } else {
                            break  // incomplete: wait for more
                        }
                        continue
                    }
                    column += advance(next)
                    text.removeFirst()
                }
                pending = Array(text.utf8)
            }
        }
        reader?.start()
    }

    deinit { close(master); slave.close() }
}

extension FakeTerminal {
    /// Runs the built client on this terminal (`columns`x`rows`, as TIOCGWINSZ reports it) with
    /// a fresh home, on a thread file of `comments`; returns the process (stop it with
    /// `terminate()`) and the home, to remove.
    /// `environment` adds to (or replaces in) the client's small fixed environment.
    func startClient(rows: Int = 24, columns: Int = 80, comments: [String],
                     environment: [String: String] = [:]) throws -> (client: Process, home: String) {
        let home = NSTemporaryDirectory() + "fake-terminal-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let path = home + "/thread.jsonl"
        let start = Date(timeIntervalSince1970: 1_600_000_000)
        var records: [ThreadRecord] = [
            .thread(ThreadHeader(id: "t", title: "On a fake terminal", author: "u1", created: start, body: "")),
            .user(User(id: "u1", handle: "ann", name: "Ann")),
        ]
        for (n, body) in comments.enumerated() {
            records.append(.comment(Comment(id: "c\(n)", author: "u1", created: start.addingTimeInterval(Double(n)), body: body)))
        }
        try Data(records.flatMap { ThreadRecordEncoder().encode($0) }).write(to: URL(fileURLWithPath: path))
        setSize(columns: columns, rows: rows)
        let client = Process()
        client.executableURL = URL(fileURLWithPath: TmuxSession.clientPath)
        client.arguments = [path, "--as", "ann"]
        client.environment = ["HOME": home, "TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
            .merging(environment) { $1 }
        let handle = FileHandle(fileDescriptor: slave.rawValue, closeOnDealloc: false)
        client.standardInput = handle
        client.standardOutput = handle
        client.standardError = handle
        try client.run()
        return (client, home)
    }
}

extension FakeTerminal {
    /// Sets the size the terminal reports (TIOCSWINSZ), up to 65,535 each way as a pty allows.
    func setSize(columns: Int, rows: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(slave.rawValue, UInt(TIOCSWINSZ), &size)
    }

    /// Waits until nothing has been written for `quiet` seconds (within 10 s); fails the test
    /// if the output never rests.
    func waitUntilQuiet(for quiet: Double = 0.2, file: StaticString = #filePath, line: UInt = #line) throws {
        var count = -1, since = MonotonicClock.now()
        let rested = try Waiting.poll(timeout: 10) {
            let now = self.chunks.count
            if now != count { (count, since) = (now, MonotonicClock.now()) }
            return MonotonicClock.now() - since >= quiet
        }
        XCTAssertTrue(rested, "the output went quiet", file: file, line: line)
    }
}

extension FakeTerminal {
    /// Ends a client `startClient` started (if it still runs) and removes its home.
    func stop(_ client: Process, home: String) {
        if client.isRunning { client.terminate() }
        client.waitUntilExit()
        try? FileManager.default.removeItem(atPath: home)
    }
}
