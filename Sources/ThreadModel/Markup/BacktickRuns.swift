/// Where each run of backticks starts, by length, so a code span finds its closer without
/// rescanning (increasing backtick runs would otherwise be quadratic).
struct BacktickRuns {
    private var starts: [Int: [Int]] = [:]
    private var cursor: [Int: Int] = [:]

    init(_ scalars: [Unicode.Scalar]) {
        var i = 0
        while i < scalars.count {
            guard scalars[i] == "`" else { i += 1; continue }
            let start = i
            while i < scalars.count, scalars[i] == "`" { i += 1 }
            starts[i - start, default: []].append(start)
        }
    }

    /// The start of the first run of exactly `length` backticks beginning after `index`.
    mutating func next(length: Int, after index: Int) -> Int? {
        guard let list = starts[length] else { return nil }
        var k = cursor[length] ?? 0
        while k < list.count, list[k] <= index { k += 1 }
        cursor[length] = k
        return k < list.count ? list[k] : nil
    }
}
