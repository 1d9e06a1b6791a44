import Foundation
import CommentTUI
import ScrollEngine
import ThreadModel

/// Issue 36's flags, tested by doubling: runs of regional indicators (flag emoji, no spaces) laid
/// out as the client opens a thread of ten such comments, and as `render` prints one. Each row
/// is measured at n and 2n flags and prints the ratio: a linear cost gives about 2, a quadratic
/// one 4. `COMMENT_TUI_BENCH_FLAG_SCALE=k` divides every n by k (to measure a slow build at all).
func flagBenchmarks() -> [BenchmarkRow] {
    let directory = NSTemporaryDirectory() + "comment-tui-bench-flags-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let scale = max(1, Int(ProcessInfo.processInfo.environment["COMMENT_TUI_BENCH_FLAG_SCALE"] ?? "") ?? 1)
    func doubling(_ name: String, _ n: Int, _ measure: (Int) -> Double) -> BenchmarkRow {
        let once = measure(n), twice = measure(2 * n)
        return BenchmarkRow(area: "flags", name: name.replacingOccurrences(of: "N", with: "\(n) · \(2 * n)"),
                            value: String(format: "%.0f ms · %.0f ms (ratio %.2f)", once, twice, twice / max(once, 0.001)))
    }
    var rows: [BenchmarkRow] = []
    // The feed lays out a body's first 64 KB: 4,000 flags (32 KB) and 8,000 (64 KB, as filed).
    rows.append(doubling("open ten comments of N flags each + first frame (100x30)", 4_000 / scale) { n in
        let path = directory + "/feed-\(n).jsonl"
        writeFlagThread(comments: 10, flags: n, to: path)
        let start = benchNow()
        guard let index = try? ThreadIndex.open(path: path), let header = index.header else { return .nan }
        let thread = CommentThread(id: header.id, title: header.title, author: header.author, created: header.created,
                                   body: header.body, users: index.users)
        let app = CommentApp(source: InMemoryThreadSource(thread: thread, store: index, label: "bench"), me: index.users[0],
                             columns: 100, rows: 30)
        _ = app.render()
        // A resize lays every comment near the screen out again.
        app.resize(columns: 90, rows: 30)
        _ = app.render()
        return Double(benchNow() - start) / 1e6
    })
    // `render` prints a body's first 1 MiB: 60,000 flags (480 KB) and 120,000 (960 KB, as filed).
    rows.append(doubling("render --plain one comment of N flags (80 columns)", 60_000 / scale) { n in
        let path = directory + "/render-\(n).jsonl"
        writeFlagThread(comments: 1, flags: n, to: path)
        var written = 0
        let context = CommandContext(environment: [:], now: { Date(timeIntervalSince1970: 1_800_000_000) },
                                     writeOutput: { written += $0.count }, writeError: { _ in },
                                     readInput: { _ in [] }, inputIsTerminal: false)
        let start = benchNow()
        precondition(Verb.render.run([path, "--width", "80", "--plain"], context: context) == 0 && written > 0)
        return Double(benchNow() - start) / 1e6
    })
    return rows
}

/// A generated thread, then `comments` comments of `flags` flags each, in one line of text.
private func writeFlagThread(comments: Int, flags: Int, to path: String) {
    var file: [UInt8] = []
    try! ThreadGenerator(comments: 1, users: 3, seed: 5).write { file += $0 }
    let countries = ["🇫🇷", "🇩🇪", "🇯🇵", "🇺🇸", "🇧🇷", "🇮🇳", "🇨🇦", "🇳🇬"]
    var body = ""
    body.reserveCapacity(flags * 8)
    for n in 0..<flags { body += countries[n % countries.count] }
    for n in 0..<comments {
        ThreadRecordEncoder().append(.comment(Comment(id: "flags\(n)", author: "u1", created: Date(timeIntervalSince1970: 1_744_884_000 + Double(n)),
                                                      body: body)), to: &file)
    }
    _ = FileManager.default.createFile(atPath: path, contents: Data(file))
}
