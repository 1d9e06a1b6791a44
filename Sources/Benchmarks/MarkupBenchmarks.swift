import Foundation
import ThreadModel

/// Parse time of the pathological inputs (cmark's and chat ones) at about 30,000 and 60,000
/// repetitions: a linear parser takes twice as long for twice the input. Parsed to runs (the
/// parser's output) and, for the cases with many runs, to an AttributedString too.
func markupBenchmarks() -> [BenchmarkRow] {
    let handles: (String) -> String? = { $0 == "x" ? "u1" : nil }
    var rows: [BenchmarkRow] = []
    func best(_ parse: () -> Int) -> (seconds: Double, runs: Int) {
        var best = Double.infinity
        var runs = 0
        for _ in 0..<3 {
            let start = threadCPUNanoseconds()
            runs = parse()
            best = min(best, Double(threadCPUNanoseconds() - start) / 1e9)
        }
        return (best, runs)
    }
    func doubling(_ name: String, _ parse: (String) -> Int) -> BenchmarkRow {
        let once = PathologicalInputs.all(30_000).first { $0.name == name }!.text
        let twice = PathologicalInputs.all(60_000).first { $0.name == name }!.text
        let n = best { parse(once) }
        let n2 = best { parse(twice) }
        let value = String(format: "%.1f · %.1f ms (x%.2f; %d chars, %d runs at n)", n.seconds * 1e3, n2.seconds * 1e3,
                           n2.seconds / max(n.seconds, 1e-9), once.unicodeScalars.count, n.runs)
        return BenchmarkRow(area: "markup", name: name + ", n · 2n", value: value)
    }
    for input in PathologicalInputs.all(30_000) {
        rows.append(doubling(input.name) { CommentMarkup.parseRuns($0, handles: handles).runs.count })
    }
    for name in ["mentions @x", "many runs *a* b", "ruby bases with markup {*a*|b}"] {
        var row = doubling(name) { CommentMarkup.parse($0, handles: handles).runs.count }
        row.name = "AttributedString: " + row.name
        rows.append(row)
    }
    return rows
}
