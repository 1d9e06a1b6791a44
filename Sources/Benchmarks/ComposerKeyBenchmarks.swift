import Foundation
import CommentTUI
import ScrollEngine
import ThreadModel

/// A key typed into a big draft, at its end and in its middle, in drafts of 0.5 MB and 1 MB:
/// a key costs what the edit and the screen cost, so the 1 MB figure is about the 0.5 MB one
/// (the ratio is printed; a cost linear in the draft would show ~2).
func composerKeyBenchmarks() -> [BenchmarkRow] {
    var rows: [BenchmarkRow] = []
    for place in ["end", "middle"] {
        var figures: [Double] = []
        for size in [500_000, 1_000_000] {
            let (median, slowest) = keyTimes(draftBytes: size, inTheMiddle: place == "middle")
            figures.append(median)
            let ratio = figures.count == 2 ? String(format: " (1 MB / 0.5 MB: %.2f)", figures[1] / max(figures[0], 1e-9)) : ""
            rows.append(BenchmarkRow(area: "composer, key in a \(size / 1000) KB draft", name: "a key typed at its \(place) + frame (median · max of 15)",
                                     value: String(format: "%.2f · %.1f ms", median * 1000, slowest * 1000) + ratio))
        }
    }
    return rows
}

/// The median and the longest time of a typed key (edit, the mention list's look, the frame)
/// in a draft of `draftBytes`, with the caret at its end or in its middle, and the draft saved
/// to a file as the client saves it (debounced: the longest is a key a save fell due at).
private func keyTimes(draftBytes: Int, inTheMiddle: Bool) -> (median: Double, slowest: Double) {
    let line = "Pasted log line with some words, 12:00:01 INFO ok\n"
    let half = String(repeating: line, count: draftBytes / 2 / line.utf8.count)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ctui-bench-keys-\(getpid())")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("keys.jsonl").path
    var file: [UInt8] = []
    try! ThreadGenerator(comments: 20, users: 5, seed: 4).write { file += $0 }
    _ = FileManager.default.createFile(atPath: path, contents: Data(file))
    let source = try! ThreadFileSource(path: path, environment: ["XDG_DATA_HOME": directory.path], follows: false)
    defer { source.close() }
    let me = source.thread.users[0]
    let app = CommentApp(source: source, me: me, columns: 100, rows: 30)
    var clock = 0.0
    func at() -> ScrollInstant { clock += 0.2; return ScrollInstant(seconds: clock) }
    if inTheMiddle {
        // The second half as one line, the caret to its start (Ctrl-A), then the first half before it.
        _ = app.update(.paste(half.replacingOccurrences(of: "\n", with: " ")), at: at())
        _ = app.update(.key(KeyPress(.character("a"), .ctrl)), at: at())
        _ = app.update(.paste(half), at: at())
    } else {
        _ = app.update(.paste(half + half), at: at())
    }
    _ = app.render()
    var keys: [Double] = []
    // Keys 0.2 s apart, as typed: the debounced save falls due among them.
    for _ in 0..<15 {
        let start = benchNow()
        _ = app.update(.key(KeyPress(.character("x"))), at: at())
        app.advance(to: ScrollInstant(seconds: clock))
        _ = app.render()
        keys.append(Double(benchNow() - start) / 1e9)
    }
    keys.sort()
    return (keys[keys.count / 2], keys.last!)
}
