import Foundation
import CommentTUI
import ThreadModel

/// The composer with a large draft: a bracketed paste of 200 KB and 1 MB, the frame after it,
/// and a keystroke (edit plus frame) inside the big draft.
func composerBenchmarks() -> [BenchmarkRow] {
    var rows: [BenchmarkRow] = []
    let line = "Pasted log line with some words, 12:00:01 INFO ok\n"
    for size in [200_000, 1_000_000] {
        let text = String(repeating: line, count: size / line.utf8.count)
        let user = User(id: "u1", handle: "ann", name: "Ann")
        let thread = CommentThread(id: "t", title: "Bench", author: "u1", created: Date(timeIntervalSince1970: 0), body: "", users: [user])
        let app = CommentApp(source: InMemoryThreadSource(thread: thread, label: "bench"), me: user, columns: 100, rows: 30)
        _ = app.render()
        var start = benchNow()
        _ = app.update(.paste(text))
        let paste = benchNow() - start
        start = benchNow()
        _ = app.render()
        let frame = benchNow() - start
        var keys: [UInt64] = []
        for _ in 0..<15 {
            start = benchNow()
            _ = app.update(.key(KeyPress(.character("x"))))
            _ = app.render()
            keys.append(benchNow() - start)
        }
        keys.sort()
        let area = "composer, \(text.utf8.count / 1000) KB draft"
        rows.append(BenchmarkRow(area: area, name: "bracketed paste into the draft", value: String(format: "%.1f ms", Double(paste) / 1e6)))
        rows.append(BenchmarkRow(area: area, name: "first frame after the paste", value: String(format: "%.1f ms", Double(frame) / 1e6)))
        rows.append(BenchmarkRow(area: area, name: "keystroke + frame in it (median / max)",
                                 value: String(format: "%.1f / %.1f ms", Double(keys[keys.count / 2]) / 1e6, Double(keys.last!) / 1e6)))
    }
    return rows
}
