import Foundation
import ThreadModel

/// Parse time of the pathological inputs (cmark's and chat ones) at about 30,000 repetitions.
func markupBenchmarks() -> [BenchmarkRow] {
    let handles: (String) -> String? = { $0 == "x" ? "u1" : nil }
    var rows: [BenchmarkRow] = []
    for input in PathologicalInputs.all(30_000) {
        var best = UInt64.max
        var runs = 0
        for _ in 0..<3 {
            let start = benchNow()
            let parsed = CommentMarkup.parse(input.text, handles: handles)
            best = min(best, benchNow() - start)
            runs = parsed.runs.count
        }
        let value = String(format: "%.1f ms (%d chars, %d runs)", Double(best) / 1e6, input.text.unicodeScalars.count, runs)
        rows.append(BenchmarkRow(area: "markup", name: input.name, value: value))
    }
    return rows
}
