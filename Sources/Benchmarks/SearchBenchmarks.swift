import Foundation
import CommentTUI
import ScrollEngine
import ThreadModel

/// Ctrl-S at 1,000,000 comments (issue 22, item 4; issue 28, item 3): the latency of a key and
/// of the turn after it (what a following key waits for); one key to a match in the oldest
/// comment, which reads the whole 209 MB file from the newest, against `less` searching the
/// same file back from its end; a miss over the whole thread.
///
/// Turns run back to back here; the loop draws at most 60 frames a second, so a turn shorter
/// than a frame waits for its slot. The time to a match is given both ways: the turns' work,
/// and that work paced as the loop paces it (what a reader waits).
func searchBenchmarks() -> [BenchmarkRow] {
    let directory = NSTemporaryDirectory() + "comment-tui-bench-search-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/search.jsonl"
    let megabytes = writeSearchThread(comments: 1_000_000, to: path)
    guard let index = try? ThreadIndex.open(path: path), let header = index.header else {
        return [BenchmarkRow(area: "search", name: "1,000,000 comments", value: "could not open the thread")]
    }
    let thread = CommentThread(id: header.id, title: header.title, author: header.author, created: header.created,
                               body: header.body, users: index.users)
    let app = CommentApp(source: InMemoryThreadSource(thread: thread, store: index, label: "bench"), me: index.users[0],
                         columns: 100, rows: 30)
    var clock = 0.0
    /// One turn of the loop; its time (s).
    func turn() -> Double {
        let start = benchNow()
        clock += 1.0 / 60
        app.advance(to: ScrollInstant(seconds: clock))
        _ = app.render()
        return Double(benchNow() - start) / 1e9
    }
    func key(_ press: KeyPress) { _ = app.update(.key(press), at: ScrollInstant(seconds: clock)) }
    /// Turns until `done`: their work and the same paced at 60 a second (s), and how many.
    func turns(until done: () -> Bool) -> (work: Double, paced: Double, count: Int) {
        var work = 0.0, paced = 0.0, count = 0
        while !done(), count < 100_000 {
            let time = turn()
            work += time
            paced += max(time, 1.0 / 60)
            count += 1
        }
        return (work, paced, count)
    }

    key(.ctrl("s"))
    var keys: [Double] = []
    var slices: [Double] = []
    // A query no comment has: every key starts a scan the next key replaces.
    for character in "zqxjkvbpw zqxjkvbpw" {
        let start = benchNow()
        key(KeyPress(.character(character)))
        keys.append(Double(benchNow() - start) / 1e6)
        slices.append(turn() * 1000)
    }
    let miss = turns { app.searchState?.isScanning != true }
    let missSaid = app.message ?? ""

    // The query for the oldest comment, typed up to its last key; that key starts the timing.
    key(.ctrl("u"))
    for character in SearchBenchmarkThread.query.dropLast() { key(KeyPress(.character(character))) }
    let start = benchNow()
    key(KeyPress(.character(SearchBenchmarkThread.query.last!)))
    let keyTime = Double(benchNow() - start) / 1e9
    let found = turns { app.searchState?.match != nil }
    let foundOldest = app.searchState?.match == 0
    let less = LessReference.searchSeconds(file: path, pattern: SearchBenchmarkThread.query, columns: 100, rows: 30)

    let key = percentiles(keys), slice = percentiles(slices)
    let area = "search, 1,000,000 comments"
    return [
        BenchmarkRow(area: area, name: "a Ctrl-S key (median / max)", value: String(format: "%.2f / %.2f ms", key.median, keys.max() ?? 0)),
        BenchmarkRow(area: area, name: "the turn after it, one slice and a frame (median / max)",
                     value: String(format: "%.1f / %.1f ms", slice.median, slices.max() ?? 0)),
        BenchmarkRow(area: area, name: "a miss over the whole thread (\(megabytes) MB): paced at 60 turns/s · work · turns",
                     value: String(format: "%.2f s · %.2f s · %d", miss.paced, miss.work, miss.count) + (missSaid.contains("no match") ? "" : " (no miss?)")),
        BenchmarkRow(area: area, name: "one key to the match in the oldest comment: paced · work · turns",
                     value: String(format: "%.2f s · %.2f s · %d", keyTime + found.paced, keyTime + found.work, found.count)
                        + (foundOldest ? "" : " (not found!)")),
        BenchmarkRow(area: area, name: "less: ?\(SearchBenchmarkThread.query) from the end to the same line",
                     value: less.map { String(format: "%.2f s", $0) } ?? "less or script not available"),
    ]
}

/// The thread `searchBenchmarks` searches: generated comments, the oldest saying the query.
enum SearchBenchmarkThread {
    /// What the oldest comment says first (so `less` shows it within 100 columns) and no other does.
    static let query = "xyzzy plugh"
}

/// Writes `comments` comments to `path`: a generated thread whose oldest comment is the one
/// with the query; returns the file's size in MB.
private func writeSearchThread(comments: Int, to path: String) -> Int {
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    guard let handle = FileHandle(forWritingAtPath: path) else { fatalError("cannot write \(path)") }
    defer { try? handle.close() }
    let oldest = ThreadRecordEncoder().encode(.comment(Comment(
        id: "n", author: "u1", created: Date(timeIntervalSince1970: 1_736_154_000), body: SearchBenchmarkThread.query + ": found it")))
    let prefix = Array(#"{"type":"comment""#.utf8)
    var placed = false
    try! ThreadGenerator(comments: comments - 1, users: comments / 100, seed: 7).write { chunk in
        // The generator's chunks hold whole lines: the first comment line starts one.
        if !placed, let at = firstLine(startingWith: prefix, in: chunk) {
            handle.write(Data(chunk[..<at]) + Data(oldest) + Data(chunk[at...]))
            placed = true
        } else {
            handle.write(Data(chunk))
        }
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    return size >> 20
}

/// The offset of the first line of `bytes` that starts with `prefix`.
private func firstLine(startingWith prefix: [UInt8], in bytes: [UInt8]) -> Int? {
    var start = 0
    while start < bytes.count {
        if bytes[start...].starts(with: prefix) { return start }
        guard let newline = bytes[start...].firstIndex(of: 0x0A) else { return nil }
        start = newline + 1
    }
    return nil
}
