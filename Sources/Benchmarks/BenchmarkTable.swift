import Glibc

/// One measured figure.
struct BenchmarkRow {
    var area: String
    var name: String
    var value: String
}

/// Collects rows and prints them aligned.
struct BenchmarkTable {
    private(set) var rows: [BenchmarkRow] = []

    mutating func add(_ more: [BenchmarkRow]) { rows += more }

    func print() {
        let header = BenchmarkRow(area: "area", name: "measure", value: "value")
        let all = [header] + rows
        let w0 = all.map(\.area.count).max() ?? 0
        let w1 = all.map(\.name.count).max() ?? 0
        for (i, row) in all.enumerated() {
            Swift.print(pad(row.area, w0) + "  " + pad(row.name, w1) + "  " + row.value)
            if i == 0 { Swift.print(String(repeating: "-", count: w0 + w1 + 16)) }
        }
    }

    private func pad(_ s: String, _ width: Int) -> String {
        s + String(repeating: " ", count: max(0, width - s.count))
    }
}

/// Monotonic nanoseconds, for benchmarks only (the client itself injects time).
func benchNow() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Median and 99th percentile of samples, in the samples' unit.
func percentiles(_ samples: [Double]) -> (median: Double, p99: Double) {
    let sorted = samples.sorted()
    guard !sorted.isEmpty else { return (0, 0) }
    let median = sorted[sorted.count / 2]
    let p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
    return (median, p99)
}

/// This thread's CPU time, in nanoseconds.
func threadCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
