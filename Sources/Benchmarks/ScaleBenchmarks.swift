import Foundation
import CommentTUI
import ScrollEngine
import ThreadModel

/// Issue 22's figures for the client at scale: the time and peak memory of showing an 8 MB
/// comment (the most a reader takes) and a 10 MB one (over the line limit: skipped and
/// reported), each in a fresh child process; and (issue 36) an 8 MB comment that is one
/// paragraph, with the time and peak memory of each show-more step. (Ctrl-S at scale:
/// `searchBenchmarks`.)
func scaleBenchmarks() -> [BenchmarkRow] {
    let directory = NSTemporaryDirectory() + "comment-tui-bench-scale-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var rows: [BenchmarkRow] = []
    for (bytes, inLines) in [(8_000_000, true), (8_000_000, false), (10_000_000, true)] {
        let path = directory + "/huge-\(bytes)-\(inLines).jsonl"
        writeHugeThread(bodyBytes: bytes, inLines: inLines, to: path)
        let label = "\(bytes / 1_000_000) MB comment" + (inLines ? "" : " in one paragraph")
        guard let figures = hugeChild(path: path) else {
            rows.append(BenchmarkRow(area: "huge comment", name: label, value: "child process failed"))
            continue
        }
        rows.append(BenchmarkRow(area: "huge comment", name: "\(label): open + first frame · peak memory (VmHWM)",
                                 value: "\(figures[0]) ms · \(figures[4]) MB"))
        rows.append(BenchmarkRow(area: "huge comment", name: "\(label): expand (64 KB laid out) · one show-more step (1 MiB) · peak",
                                 value: "\(figures[1]) ms · \(figures[2]) ms · \(figures[5]) MB"))
        rows.append(BenchmarkRow(area: "huge comment", name: "\(label): the steps to the whole body (the reader asks each) · peak",
                                 value: "\(figures[3]) ms · \(figures[6]) MB"))
        rows.append(BenchmarkRow(area: "huge comment", name: "\(label): the search turn that reads it",
                                 value: "\(figures[7]) ms"))
        rows.append(BenchmarkRow(area: "huge comment", name: "\(label): each show-more step, ms/peak MB",
                                 value: figures[8].replacingOccurrences(of: ",", with: " · ")))
    }
    return rows
}

/// 20 generated comments, then one of `bodyBytes` bytes of words in lines (or one paragraph).
private func writeHugeThread(bodyBytes: Int, inLines: Bool, to path: String) {
    var file: [UInt8] = []
    try! ThreadGenerator(comments: 20, users: 5, seed: 4).write { file += $0 }
    var body = ""
    body.reserveCapacity(bodyBytes + 100)
    var n = 0
    while body.utf8.count < bodyBytes {
        for _ in 0..<10 { body += "word\(n) "; n += 1 }
        if inLines { body += "\n" }
    }
    ThreadRecordEncoder().append(.comment(Comment(id: "huge", author: "u2", created: Date(timeIntervalSince1970: 1_744_884_000),
                                                  body: body)), to: &file)
    _ = FileManager.default.createFile(atPath: path, contents: Data(file))
}

/// `comment-tui-bench --huge-only PATH` in a child; its nine figures.
private func hugeChild(path: String) -> [String]? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
    process.arguments = ["--huge-only", path]
    let output = Pipe()
    process.standardOutput = output
    guard (try? process.run()) != nil else { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    return process.terminationStatus == 0 && fields.count == 9 ? fields : nil
}

/// The child: open the thread as the client does, draw the first frame (the huge comment is
/// the newest), expand it, show one step more, then step to the whole body; print the four
/// times (ms), the peak memory (MB) after the first frame, the one step and the whole, the
/// search turn that reads the huge comment (ms), and each step's time and peak after it.
func runHugeOnly(path: String) {
    func ms(_ since: UInt64) -> String { String(format: "%.0f", Double(benchNow() - since) / 1e6) }
    func peak() -> String { String(format: "%.0f", Double(peakResidentKilobytes()) / 1024) }
    var start = benchNow()
    guard let index = try? ThreadIndex.open(path: path), let header = index.header else { exit(1) }
    let thread = CommentThread(id: header.id, title: header.title, author: header.author, created: header.created,
                               body: header.body, users: index.users)
    let app = CommentApp(source: InMemoryThreadSource(thread: thread, store: index, label: "bench"), me: index.users[0],
                         columns: 100, rows: 30)
    _ = app.render()
    let opened = ms(start), openedPeak = peak()
    // Alt-Down clamps at the newest comment: the huge one. Alt-E expands, then shows more.
    for _ in 0..<30 { _ = app.update(.key(KeyPress(.down, .alt)), at: ScrollInstant(seconds: 0)) }
    func altE() {
        _ = app.update(.key(KeyPress(.character("e"), .alt)), at: ScrollInstant(seconds: 0))
        _ = app.render()
    }
    start = benchNow()
    altE()
    let expanded = ms(start)
    start = benchNow()
    altE()
    let step = ms(start), stepPeak = peak()
    var steps = ["\(step)/\(stepPeak)"]
    start = benchNow()
    for _ in 0..<8 {
        let stepStart = benchNow()
        altE()
        steps.append("\(ms(stepStart))/\(peak())")
    }
    let all = ms(start), allPeak = peak()
    // A search turn that reads the huge comment (the newest, read first): one comment, whole.
    _ = app.update(.key(KeyPress(.escape)), at: ScrollInstant(seconds: 0))
    _ = app.update(.key(.ctrl("s")), at: ScrollInstant(seconds: 0))
    _ = app.update(.key(KeyPress(.character("q"))), at: ScrollInstant(seconds: 0))
    start = benchNow()
    app.advance(to: ScrollInstant(seconds: 1))
    print("\(opened) \(expanded) \(step) \(all) \(openedPeak) \(stepPeak) \(allPeak) \(ms(start)) \(steps.joined(separator: ","))")
}
