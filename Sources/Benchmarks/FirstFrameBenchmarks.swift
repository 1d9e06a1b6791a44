import Foundation
import Glibc
import ThreadModel

/// Issue 28's first frame: the time from starting `comment-tui` (supervisor, worker, open, the
/// grapheme probe sent) to its first frame on a pseudo-terminal (100x30), at 1,000 and
/// 1,000,000 comments, on a terminal that answers the probe (each cluster two columns, as a
/// grapheme-aware terminal moves its cursor) and on one that never answers. The first frame
/// waits for neither; where the terminal answers, when the client had taken the answers too.
/// Needs `comment-tui` built beside the bench (`swift build -c release --product comment-tui`).
func firstFrameBenchmarks() -> [BenchmarkRow] {
    let client = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("comment-tui").path
    guard FileManager.default.isExecutableFile(atPath: client) else {
        return [BenchmarkRow(area: "first frame", name: "comment-tui beside the bench", value: "missing: build it in release too")]
    }
    let directory = NSTemporaryDirectory() + "comment-tui-bench-first-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var rows: [BenchmarkRow] = []
    for count in [1_000, 1_000_000] {
        let path = directory + "/thread-\(count).jsonl"
        _ = generateThread(comments: count, users: max(10, count / 100), to: path)
        guard let handle = try? ThreadIndex.open(path: path).users.first?.handle else { continue }
        for answers in [true, false] {
            let runs = (0..<5).compactMap { _ in firstFrame(client: client, path: path, handle: handle, answers: answers) }
            let terminal = answers ? "a terminal that answers" : "a terminal that does not answer"
            guard !runs.isEmpty else {
                rows.append(BenchmarkRow(area: "first frame", name: "\(count) comments, \(terminal)", value: "client failed"))
                continue
            }
            let frame = percentiles(runs.map(\.frame))
            var value = "\(format1(frame.median)) ms (slowest \(format1(runs.map(\.frame).max()!)))"
            if answers {
                let taken = runs.compactMap(\.answersTaken)
                value += " · answers taken at \(taken.isEmpty ? "never" : format1(percentiles(taken).median) + " ms")"
            }
            rows.append(BenchmarkRow(area: "first frame", name: "start to first frame, \(count) comments, \(terminal), median of \(runs.count)",
                                     value: value))
        }
    }
    return rows
}

/// One start of the client on a fresh pseudo-terminal and home; milliseconds from the start to
/// the first frame and, where the terminal answers, to the client keeping the answers.
private func firstFrame(client: String, path: String, handle: String, answers: Bool) -> (frame: Double, answersTaken: Double?)? {
    let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    guard master >= 0 else { return nil }
    defer { close(master) }
    var unlock: Int32 = 0, number: UInt32 = 0
    // TIOCSPTLCK and TIOCGPTN (Linux), which Swift's Glibc does not import.
    guard ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else { return nil }
    let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
    guard slave >= 0 else { return nil }
    var size = winsize(ws_row: 30, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
    let home = NSTemporaryDirectory() + "comment-tui-bench-home-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: home) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: client)
    process.arguments = [path, "--as", handle]
    process.environment = ["HOME": home, "TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
    let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
    (process.standardInput, process.standardOutput, process.standardError) = (terminal, terminal, terminal)
    let start = benchNow()
    guard (try? process.run()) != nil else { return nil }
    var player = ProbeAnswerer(answers: answers)
    var frame: Double?
    var taken: Double?
    let cache = home + "/.cache/comment-tui/graphemes.json"
    var chunk = [UInt8](repeating: 0, count: 65536)
    let deadline = start + 20_000_000_000
    while benchNow() < deadline, frame == nil || (answers && taken == nil) {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        if poll(&descriptor, 1, 5) > 0 {
            let n = read(master, &chunk, chunk.count)
            guard n > 0 else { break }
            if let reply = player.take(chunk[0..<n]) { _ = reply.withUnsafeBytes { write(master, $0.baseAddress, $0.count) } }
            if frame == nil, player.sawFirstFrame { frame = Double(benchNow() - start) / 1e6 }
        }
        if answers, taken == nil, FileManager.default.fileExists(atPath: cache) { taken = Double(benchNow() - start) / 1e6 }
    }
    process.terminate()
    // Drain what the client writes as it leaves, so it never blocks on a full terminal.
    while process.isRunning {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        if poll(&descriptor, 1, 10) > 0, read(master, &chunk, chunk.count) <= 0 { break }
    }
    process.waitUntilExit()
    return frame.map { ($0, taken) }
}

/// Plays the terminal's side of the probe: answers each cursor position query with the column
/// the samples moved the cursor to (two for each cluster that is not ASCII), and mode 2027's
/// query and DA1 as xterm does (2027 not known). Notes when the first frame (its status bar) has come.
private struct ProbeAnswerer {
    let answers: Bool
    private var pending: [UInt8] = []
    private var column = 1
    private var probing = true
    private var screen: [UInt8] = []
    private(set) var sawFirstFrame = false

    init(answers: Bool) { self.answers = answers }

    /// Takes what the client wrote; returns the answers to send, if any.
    mutating func take(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        guard probing else {
            if !sawFirstFrame {
                screen += bytes
                sawFirstFrame = String(decoding: screen, as: UTF8.self).contains(" · idle · ")
            }
            return nil
        }
        pending += bytes
        var reply = ""
        var text = Substring(String(decoding: pending, as: UTF8.self))
        while let next = text.first {
            if next == "\r" { column = 1; text.removeFirst(); continue }
            if next == "\u{1B}" {
                if text.hasPrefix("\u{1B}[6n") {
                    text.removeFirst(4)
                    if answers { reply += "\u{1B}[1;\(column)R" }
                } else if text.hasPrefix("\u{1B}[?2027$p") {
                    text.removeFirst(9)
                    if answers { reply += "\u{1B}[?2027;0$y" }
                } else if text.hasPrefix("\u{1B}[c") {
                    text.removeFirst(3)
                    if answers { reply += "\u{1B}[?62;22c" }
                } else if text.hasPrefix("\u{1B}[2K") {
                    text.removeFirst(4)
                } else if text.hasPrefix("\u{1B}[?1049h") {
                    probing = false
                    screen = Array(text.utf8)
                    sawFirstFrame = text.contains(" · idle · ")
                    text = ""
                } else if text.count < 9 {
                    break  // incomplete: wait for more
                } else {
                    text.removeFirst()  // a sequence the probe does not send
                }
                continue
            }
            column += next.isASCII ? 1 : 2
            text.removeFirst()
        }
        pending = Array(text.utf8)
        return reply.isEmpty ? nil : Array(reply.utf8)
    }
}

private func format1(_ value: Double) -> String { "\((value * 10).rounded() / 10)" }
