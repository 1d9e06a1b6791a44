import Foundation
import CommentTUI
import ThreadModel

/// Thread index figures: opening 100,000 and 1,000,000 generated comments (the index alone, and
/// the client's first frame on it), the peak memory of a process that does only that,
/// and the cost of decoding a page of 30 comments deep in the file.
func threadIndexBenchmarks() -> [BenchmarkRow] {
    let directory = NSTemporaryDirectory() + "comment-tui-bench-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var rows: [BenchmarkRow] = []
    for count in [100_000, 1_000_000] {
        let path = directory + "/thread-\(count).jsonl"
        let megabytes = generateThread(comments: count, users: count / 100, to: path)
        // Each open runs in a fresh child so that VmHWM counts that open and nothing before it.
        let runs = (0..<5).compactMap { _ in indexOnlyChild(path: path) }
        guard !runs.isEmpty else {
            rows.append(BenchmarkRow(area: "index", name: "open \(count) comments", value: "child process failed"))
            continue
        }
        let open = percentiles(runs.map(\.openMilliseconds)).median
        let firstFrame = percentiles(runs.map(\.firstFrameMilliseconds)).median
        let peak = runs.map(\.peakKilobytes).max() ?? 0
        rows.append(BenchmarkRow(area: "index", name: "open \(count) comments (\(megabytes) MB file), median of \(runs.count)",
                                 value: "\(format1(open)) ms"))
        rows.append(BenchmarkRow(area: "index", name: "open + first frame of the client (100x30), \(count) comments",
                                 value: "\(format1(firstFrame)) ms"))
        rows.append(BenchmarkRow(area: "index", name: "peak memory (VmHWM) of that process, \(count) comments",
                                 value: "\(format1(Double(peak) / 1024)) MB"))
        if count == 1_000_000, let page = pageStepCost(path: path, around: 500_000) {
            rows.append(BenchmarkRow(area: "index", name: "decode a page of 30 at ~500,000 (median, p99)",
                                     value: "\(format1(page.median / 1000)) µs, \(format1(page.p99 / 1000)) µs"))
        }
    }
    return rows
}

/// Writes a generated thread to `path`; returns its size in MB.
func generateThread(comments: Int, users: Int, to path: String) -> Int {
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    guard let handle = FileHandle(forWritingAtPath: path) else { fatalError("cannot write \(path)") }
    defer { try? handle.close() }
    try! ThreadGenerator(comments: comments, users: users, seed: 7).write { handle.write(Data($0)) }
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    return size >> 20
}

/// Decodes pages of 30 uncached comments starting near `index`, one page per sample.
private func pageStepCost(path: String, around index: Int) -> (median: Double, p99: Double)? {
    guard let thread = try? ThreadIndex.open(path: path), thread.commentCount > index + 30 * 200 else { return nil }
    var samples: [Double] = []
    var sink = 0
    for page in 0..<200 {
        let first = index + page * 30
        let start = benchNow()
        for position in first..<(first + 30) {
            if case .success(let comment) = thread.comment(at: position) { sink &+= comment.body.utf8.count }
        }
        samples.append(Double(benchNow() - start))
    }
    precondition(sink > 0, "the pages decoded")
    return percentiles(samples)
}

/// One open measured in a child: `comment-tui-bench --index-only PATH` (see `runIndexOnly`).
private func indexOnlyChild(path: String) -> (openMilliseconds: Double, firstFrameMilliseconds: Double, peakKilobytes: Int)? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
    process.arguments = ["--index-only", path]
    let output = Pipe()
    process.standardOutput = output
    guard (try? process.run()) != nil else { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let fields = String(decoding: data, as: UTF8.self).split(separator: " ").map { String($0.filter { !$0.isNewline }) }
    guard process.terminationStatus == 0, fields.count == 3, let open = Double(fields[0]),
          let frame = Double(fields[1]), let peak = Int(fields[2]) else { return nil }
    return (open, frame, peak)
}

/// The child's whole job: open `path` and build the client on the index as `comment-tui FILE`
/// does, render its first frame (the newest comments, decoded and laid out); print
/// "<open ms> <open + first frame ms> <VmHWM kB>". Kept tiny so its peak is the client's.
func runIndexOnly(path: String) {
    let start = benchNow()
    guard let index = try? ThreadIndex.open(path: path), let header = index.header else { exit(1) }
    let opened = benchNow()
    let thread = CommentThread(id: header.id, title: header.title, author: header.author, created: header.created,
                               body: header.body, users: index.users)
    let app = CommentApp(source: InMemoryThreadSource(thread: thread, store: index, label: "bench"), me: index.users[0],
                         columns: 100, rows: 30)
    let frame = app.render()
    let framed = benchNow()
    precondition(frame.buffer.line(5).count > 0, "drew the feed")
    print("\(Double(opened - start) / 1e6) \(Double(framed - start) / 1e6) \(peakResidentKilobytes())")
}

/// VmHWM from /proc/self/status: the most memory this process has had resident.
func peakResidentKilobytes() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return -1 }
    return Int(line.split(separator: " ")[1]) ?? -1
}

private func format1(_ value: Double) -> String { "\((value * 10).rounded() / 10)" }
