import Foundation
import CommentTUI
import ThreadModel

/// A comment with 40 distinct reactions at 100x30: the reactions changing (the row under the
/// comment laid out again, keys made safe, its text's layout kept), and the frame after it.
/// Target: the layout under 1 ms.
func reactionBenchmarks() -> [BenchmarkRow] {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let ann = User(id: "u1", handle: "ann", name: "Ann")
    let bo = User(id: "u2", handle: "bo", name: "Bo")
    let comment = Comment(id: "c1", author: bo.id, created: start,
                          body: "A comment people react to a lot, with **some** markup and a [link](https://example.org).")
    let thread = CommentThread(id: "t", title: "Reactions", author: bo.id, created: start, body: "post", users: [ann, bo],
                               comments: [comment])
    let app = CommentApp(source: InMemoryThreadSource(thread: thread, label: "bench"), me: ann, columns: 100, rows: 30)
    _ = app.render()
    // Emoji, flags, ZWJ sequences, skin tones and text: every shape the width discipline handles.
    let keys = ["👍", "❤️", "😂", "🎉", "👀", "🇫🇷", "👩‍💻", "👍🏽", "✔️", "ok", "+1", "🔥", "🚀", "🙏", "💯", "🤔", "😢", "😡", "🙌", "👏"]
    let reactions = (0..<40).map { ReactionCount(key: keys[$0 % keys.count] + ($0 < keys.count ? "" : "\($0)"), count: 40 - $0,
                                                  includesMine: $0 % 7 == 0) }
    var layout: [Double] = []
    var frame: [Double] = []
    for run in 0..<300 {
        // Each run a different count, so the row is laid out anew every time.
        var changed = reactions
        changed[run % 40].count += 1
        let before = benchNow()
        app.receive([.reactionsChanged(commentID: "c1", changed)])
        let laidOut = benchNow()
        _ = app.render()
        let drawn = benchNow()
        layout.append(Double(laidOut - before) / 1000)
        frame.append(Double(drawn - laidOut) / 1000)
    }
    let area = "reactions 100x30"
    let laid = percentiles(layout)
    let drawn = percentiles(frame)
    return hostileFileRows(start: start) + reactionFileRows() + [
        BenchmarkRow(area: area, name: "40 distinct keys change: row laid out, text kept (median / p99; target < 1 ms)",
                     value: String(format: "%.0f / %.0f µs", laid.median, laid.p99)),
        BenchmarkRow(area: area, name: "the frame after it (median / p99)", value: String(format: "%.0f / %.0f µs", drawn.median, drawn.p99)),
    ]
}

/// A hostile file's reaction records (about 100 MB of them): a million `react`/`unreact` to one
/// comment by 2,000 people with one key, counted as opening the file counts them. Each person is
/// looked up, not searched for among the others, so it takes about as long as reading them.
private func hostileFileRows(start: Date) -> [BenchmarkRow] {
    let people = (0..<2000).map { "u\($0)" }
    let records = (0..<1_000_000).map { index in
        (change: ReactionChange(comment: "c1", author: people[index % people.count], created: start,
                                key: "👍", removes: (index / people.count) % 2 == 1), line: index + 3)
    }
    let before = benchNow()
    let counted = ReactionTally.counting(records, commentLines: ["c1": 2], deleted: [], isKnownUser: { _ in true })
    let took = Double(benchNow() - before) / 1_000_000
    return [BenchmarkRow(area: "reactions", name: "1,000,000 react/unreact records to one comment by 2,000 people (~100 MB file): counted",
                         value: String(format: "%.0f ms (%d problems)", took, counted.problems.count))]
}
