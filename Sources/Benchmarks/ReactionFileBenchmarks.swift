import Foundation
import CommentTUI
import ThreadModel

/// The hostile reaction file opened as the client opens it (`comment-tui FILE`): a million
/// `react`/`unreact` records to one comment by 2,000 people (about 100 MB), in a child process so
/// that its peak memory (VmHWM) is that open's alone. The index counts the records as it reads
/// and keeps none of them (before issue 32's leftovers it kept every record for the file's life).
func reactionFileRows() -> [BenchmarkRow] {
    let directory = NSTemporaryDirectory() + "comment-tui-bench-reactions-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/hostile-reactions.jsonl"
    let megabytes = writeHostileReactionFile(to: path)
    let runs = (0..<3).compactMap { _ -> (open: Double, peak: Int)? in
        guard let child = try? BenchmarkChild.run(["--reactions-only", path], folder: directory, config: "c", cache: "c",
                                                 data: "d", state: "s"), child.status == 0 else { return nil }
        let fields = child.printed.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let open = Double(fields[0]), let peak = Int(fields[1]) else { return nil }
        return (open, peak)
    }
    guard !runs.isEmpty else { return [BenchmarkRow(area: "reactions", name: "open the hostile reaction file", value: "child process failed")] }
    let open = percentiles(runs.map(\.open)).median
    let peak = runs.map(\.peak).max() ?? 0
    return [BenchmarkRow(area: "reactions",
                         name: "open 1,000,000 react/unreact records by 2,000 people (\(megabytes) MB file) as the client does · peak memory (VmHWM)",
                         value: String(format: "%.0f ms · %.1f MB", open, Double(peak) / 1024))]
}

/// Writes the hostile file; returns its size in MB.
private func writeHostileReactionFile(to path: String) -> Int {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    guard let handle = FileHandle(forWritingAtPath: path) else { fatalError("cannot write \(path)") }
    defer { try? handle.close() }
    let encoder = ThreadRecordEncoder()
    var bytes: [UInt8] = []
    let head: [ThreadRecord] = [
        .thread(ThreadHeader(id: "t", title: "Hostile", author: "u0", created: start, body: "post")),
        .user(User(id: "u0", handle: "ann", name: "Ann")),
        .comment(Comment(id: "c1", author: "u0", created: start, body: "reacted to a million times")),
    ]
    for record in head { encoder.append(record, to: &bytes) }
    for index in 0..<1_000_000 {
        let change = ReactionChange(comment: "c1", author: "u\(index % 2000)", created: start, key: "👍",
                                    removes: (index / 2000) % 2 == 1)
        encoder.append(.reaction(change), to: &bytes)
        if bytes.count > 1 << 22 {
            handle.write(Data(bytes))
            bytes.removeAll(keepingCapacity: true)
        }
    }
    handle.write(Data(bytes))
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    return size >> 20
}

/// The child's whole job: open `path` as the client does (indexed, its reactions counted),
/// print "<open ms> <VmHWM kB>".
func runReactionsOnly(path: String) {
    let start = benchNow()
    guard let source = try? ThreadFileSource(path: path, environment: [:], follows: false) else { exit(1) }
    let opened = benchNow()
    precondition(source.index.commentCount == 1, "the one comment indexed")
    print("\(Double(opened - start) / 1e6) \(peakResidentKilobytes())")
}
