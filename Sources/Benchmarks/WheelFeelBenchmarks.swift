import ScrollEngine

/// How the wheel feels, in figures: rows moved by 8 notches at several notch gaps (glide
/// included), the glide's speed just after the last notch against just before it, and how long
/// `decelerating` lasts after the last drawn row moved.
func wheelFeelBenchmarks() -> [BenchmarkRow] {
    let gaps = [0.0, 0.01, 0.02, 0.03, 0.048, 0.052, 0.075, 0.1, 0.15]
    let responses = gaps.map { gap in "\(Int(gap * 1000)) ms: \(Int(rowsMoved(notches: 8, gap: gap)))" }
    return [
        BenchmarkRow(area: "feel", name: "rows moved by 8 notches, by gap between notches",
                     value: responses.joined(separator: ", ")),
        BenchmarkRow(area: "feel", name: "glide speed after / before the wheel stops (20 ms notches)",
                     value: String(format: "%.2f", releaseSpeedRatio())),
        BenchmarkRow(area: "feel", name: "decelerating after the last drawn row moved (fling, 4 speeds)",
                     value: String(format: "%.1f ms at most", lingering() * 1000)),
    ]
}

private func feelModel() -> ScrollModel<Int> {
    let model = ScrollModel<Int>(containerRows: 30, columns: 100, items: (0..<100_000).map { (id: $0, height: 1) })
    model.scrollTo(offset: 50_000, animated: false, at: ScrollInstant(seconds: 0))
    return model
}

private func rowsMoved(notches: Int, gap: Double) -> Double {
    let model = feelModel()
    for i in 0..<notches { model.handle(.wheel(notches: 1), at: ScrollInstant(seconds: 1 + gap * Double(i))) }
    var t = model.now.seconds
    while model.nextDeadline != nil, t < 30 {
        t += 1.0 / 60
        model.advance(to: ScrollInstant(seconds: t))
    }
    return model.contentOffset - 50_000
}

private func releaseSpeedRatio() -> Double {
    let model = feelModel()
    var offsets: [Int: Double] = [:]
    var notch = 0
    for step in 1...100 {
        let t = 1 + 0.005 * Double(step)
        // A notch every 20 ms from 1.0 s to 1.3 s, each at its own instant.
        while notch <= 15, 1 + 0.02 * Double(notch) <= t + 1e-9 {
            model.handle(.wheel(notches: 1), at: ScrollInstant(seconds: 1 + 0.02 * Double(notch)))
            notch += 1
        }
        model.advance(to: ScrollInstant(seconds: t))
        offsets[1000 + 5 * step] = model.contentOffset
    }
    let before = (offsets[1300]! - offsets[1240]!) / 0.06
    let after = (offsets[1365]! - offsets[1305]!) / 0.06
    return after / before
}

private func lingering() -> Double {
    var worst = 0.0
    for rows in [2, 6, 12, 20] {
        let model = feelModel()
        model.handle(.press(row: 25), at: ScrollInstant(seconds: 1))
        model.handle(.drag(row: 25 - rows), at: ScrollInstant(seconds: 1.05))
        model.handle(.release, at: ScrollInstant(seconds: 1.05))
        var t = 1.05, lastChange = 1.05
        var drawn = model.geometry.drawnOffset
        while model.phase != .idle, t < 10 {
            t += 0.0005
            model.advance(to: ScrollInstant(seconds: t))
            if model.geometry.drawnOffset != drawn { drawn = model.geometry.drawnOffset; lastChange = t }
        }
        worst = max(worst, t - lastChange)
    }
    return worst
}
