import ScrollEngine

/// Scroll engine figures: one input plus one frame step at 100 vs 1,000,000 items, and the cost
/// of prepending a batch of 1,000 items into 1,000,000.
func scrollBenchmarks() -> [BenchmarkRow] {
    var rows: [BenchmarkRow] = []
    for count in [100, 1_000_000] {
        let ns = inputAndFrameCost(items: count)
        rows.append(BenchmarkRow(area: "scroll", name: "wheel notch + frame step, \(count) items",
                                 value: String(format1(ns)) + " ns/op"))
    }
    for count in [100, 1_000_000] {
        let ns = dragAndFrameCost(items: count)
        rows.append(BenchmarkRow(area: "scroll", name: "drag move + frame step, \(count) items",
                                 value: String(format1(ns)) + " ns/op"))
    }
    let prepend = prependCost(existing: 1_000_000, batch: 1_000)
    rows.append(BenchmarkRow(area: "scroll", name: "prepend 1,000 items into 1,000,000 (median, p99)",
                             value: "\(format1(prepend.median / 1000)) µs, \(format1(prepend.p99 / 1000)) µs"))
    let build = buildCost(items: 1_000_000)
    rows.append(BenchmarkRow(area: "scroll", name: "setItems 1,000,000 items (O(n) rebuild)",
                             value: "\(format1(build / 1_000_000)) ms"))
    return rows
}

private func format1(_ value: Double) -> String {
    let tenths = (value * 10).rounded() / 10
    return "\(tenths)"
}

private func model(items count: Int) -> ScrollModel<Int> {
    // Varied heights so lookups walk real prefix sums.
    let items = (0..<count).map { (id: $0, height: 1 + $0 % 5) }
    let model = ScrollModel<Int>(containerRows: 40, columns: 100, items: items)
    model.scrollTo(offset: Double(model.items.totalHeight / 2), animated: false, at: ScrollInstant(seconds: 0))
    return model
}

/// A wheel notch then one 16 ms frame (`advance` plus the top-row anchor lookup a view does).
private func inputAndFrameCost(items count: Int) -> Double {
    let model = model(items: count)
    var t = 1.0
    var sink = 0
    let iterations = 200_000
    let start = benchNow()
    for i in 0..<iterations {
        model.handle(.wheel(notches: i % 2 == 0 ? 1 : -1), at: ScrollInstant(seconds: t))
        t += 1.0 / 60
        model.advance(to: ScrollInstant(seconds: t))
        sink &+= model.anchor?.id ?? 0
    }
    let elapsed = Double(benchNow() - start)
    precondition(sink != 42, "keep the work")
    return elapsed / Double(iterations)
}

/// A drag move then one frame, as while following the pointer.
private func dragAndFrameCost(items count: Int) -> Double {
    let model = model(items: count)
    var t = 1.0
    var sink = 0
    model.handle(.press(row: 20), at: ScrollInstant(seconds: t))
    let iterations = 200_000
    let start = benchNow()
    for i in 0..<iterations {
        t += 1.0 / 60
        model.handle(.drag(row: i % 2 == 0 ? 18 : 22), at: ScrollInstant(seconds: t))
        model.advance(to: ScrollInstant(seconds: t + 0.001))
        sink &+= model.item(atViewportRow: 0) ?? 0
    }
    let elapsed = Double(benchNow() - start)
    precondition(sink != 42, "keep the work")
    return elapsed / Double(iterations)
}

/// Prepends batches of `batch` items into a model of `existing` items, with the anchor kept.
private func prependCost(existing: Int, batch: Int) -> (median: Double, p99: Double) {
    let model = model(items: existing)
    var samples: [Double] = []
    var nextID = -1
    for _ in 0..<200 {
        let items = (0..<batch).map { i -> (id: Int, height: Int) in
            defer { nextID -= 1 }
            return (nextID, 1 + i % 4)
        }
        let start = benchNow()
        model.prepend(items)
        samples.append(Double(benchNow() - start))
    }
    return percentiles(samples)
}

private func buildCost(items count: Int) -> Double {
    let items = (0..<count).map { (id: $0, height: 1 + $0 % 5) }
    let model = ScrollModel<Int>(containerRows: 40, columns: 100)
    let start = benchNow()
    model.setItems(items)
    return Double(benchNow() - start)
}
