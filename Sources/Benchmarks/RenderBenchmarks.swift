import Foundation
import CommentTUI
import ThreadModel
#if canImport(Glibc)
import Glibc
#endif

/// Frame cost of the demo thread and the bytes ncurses writes for a row scroll and a keystroke.
func renderBenchmarks() -> [BenchmarkRow] {
    var rows: [BenchmarkRow] = []
    for (columns, height) in [(100, 30), (200, 50)] {
        let thread = DemoThread.make()
        let app = CommentApp(thread: thread, me: thread.user(handle: "tatiana")!, threadLabel: "demo", columns: columns, rows: height)
        var samples: [Double] = []
        var previous = app.render().buffer
        for i in 0..<400 {
            let key: InputEvent = .key(KeyPress(i % 40 < 20 ? .up : .down, .ctrl))
            let start = benchNow()
            _ = app.handle(key)
            let frame = app.render()
            _ = frame.buffer.changes(from: previous)
            samples.append(Double(benchNow() - start) / 1000)
            previous = frame.buffer
        }
        let (median, p99) = percentiles(samples)
        rows.append(BenchmarkRow(area: "frame \(columns)x\(height)", name: "row scroll: render + diff (median / p99)", value: String(format: "%.1f / %.1f µs", median, p99)))
        if let bytes = ncursesBytes(columns: columns, rows: height) {
            rows.append(BenchmarkRow(area: "frame \(columns)x\(height)", name: "bytes per row scroll (ncurses)", value: "\(bytes.rowScroll)"))
            rows.append(BenchmarkRow(area: "frame \(columns)x\(height)", name: "bytes per keystroke echo (ncurses)", value: "\(bytes.keystroke)"))
        }
    }
    return rows
}

/// Drives the real ncurses backend into a `tmpfile()` and counts what it writes.
private func ncursesBytes(columns: Int, rows: Int) -> (rowScroll: Int, keystroke: Int)? {
    guard let output = tmpfile(), let input = fopen("/dev/null", "r") else { return nil }
    defer { fclose(output); fclose(input) }
    guard let screen = try? NCursesScreen(terminalType: "xterm-256color", output: output, input: input, enableModes: false) else { return nil }
    defer { screen.end() }
    screen.resize(columns: columns, rows: rows)
    let thread = DemoThread.make()
    let app = CommentApp(thread: thread, me: thread.user(handle: "tatiana")!, threadLabel: "demo", columns: columns, rows: rows)
    screen.present(app.render(), full: true)
    func written() -> Int { fflush(output); return Int(ftell(output)) }
    let steps = 20
    var start = written()
    for _ in 0..<steps {
        _ = app.handle(.key(KeyPress(.up, .ctrl)))
        screen.present(app.render(), full: false)
    }
    let rowScroll = (written() - start) / steps
    start = written()
    let typed = "hello world, typing!"
    for c in typed {
        _ = app.handle(.key(KeyPress(.character(c))))
        screen.present(app.render(), full: false)
    }
    return (rowScroll, (written() - start) / typed.count)
}

/// Laying out and drawing comments: `comment-tui render` over 10,000 generated comments
/// (parse, layout, header, renderer, plain text out), per comment.
func commentLayoutBenchmark() -> BenchmarkRow {
    let path = NSTemporaryDirectory() + "comment-tui-bench-layout-\(getpid()).jsonl"
    defer { try? FileManager.default.removeItem(atPath: path) }
    var bytes: [UInt8] = []
    try! ThreadGenerator(comments: 10_000, users: 100, seed: 3).write { bytes += $0 }
    FileManager.default.createFile(atPath: path, contents: Data(bytes))
    var written = 0
    let context = CommandContext(environment: [:], now: { Date(timeIntervalSince1970: 1_800_000_000) },
                                 writeOutput: { written += $0.count }, writeError: { _ in },
                                 readInput: { [] }, inputIsTerminal: false)
    var samples: [Double] = []
    for _ in 0..<3 {
        let start = benchNow()
        precondition(Verb.render.run([path, "--width", "100", "--plain"], context: context) == 0)
        samples.append(Double(benchNow() - start) / 1000 / 10_000)
    }
    precondition(written > 0)
    return BenchmarkRow(area: "layout", name: "parse + lay out + draw one comment at 100 columns (render verb, best of 3)",
                        value: String(format: "%.1f µs", samples.min()!))
}
