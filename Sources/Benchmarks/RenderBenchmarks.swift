import Foundation
import CommentTUI
import ScrollEngine
import ThreadModel
#if canImport(Glibc)
import Glibc
#endif

/// The feed's output through the real ncurses backend into a `tmpfile()`: bytes per row scroll,
/// page and keystroke, and CPU time per frame, at 100x30 and 200x50 with 100 and 1,000,000
/// comments; and what `less` writes for a row scroll of the same rendered text.
func renderBenchmarks() -> [BenchmarkRow] {
    let directory = NSTemporaryDirectory() + "comment-tui-bench-render-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var rows: [BenchmarkRow] = []
    for count in [100, 1_000_000] {
        let path = directory + "/thread-\(count).jsonl"
        _ = generateThread(comments: count, users: max(10, count / 100), to: path)
        for (columns, height) in [(100, 30), (200, 50)] {
            let area = "output \(columns)x\(height), \(count) comments"
            guard let figures = feedOutput(path: path, columns: columns, rows: height) else {
                rows.append(BenchmarkRow(area: area, name: "ncurses into a tmpfile", value: "failed"))
                continue
            }
            rows.append(BenchmarkRow(area: area, name: "bytes per row scroll (Ctrl-Up)", value: "\(figures.rowScroll)"))
            rows.append(BenchmarkRow(area: area, name: "bytes per page (PageUp)", value: "\(figures.page)"))
            rows.append(BenchmarkRow(area: area, name: "bytes per keystroke echo", value: "\(figures.keystroke)"))
            rows.append(BenchmarkRow(area: area, name: "CPU per page step mid-thread (median)",
                                     value: String(format: "%.0f µs", figures.pageCPU)))
            rows.append(BenchmarkRow(area: area, name: "CPU per frame while gliding (median / p99)",
                                     value: String(format: "%.1f / %.1f µs", figures.frame.median, figures.frame.p99)))
            if count == 100, columns == 100 {
                // The same steps where the terminal draws every emoji kind whole (written past ncurses).
                DisplayWidth.policy = .allIntact
                if let whole = feedOutput(path: path, columns: columns, rows: height) {
                    rows.append(BenchmarkRow(area: area, name: "bytes per row · page · keystroke, every emoji kind drawn whole",
                                             value: "\(whole.rowScroll) · \(whole.page) · \(whole.keystroke)"))
                }
                DisplayWidth.policy = .substitute
            }
            if count == 100 {
                let less = LessReference.scrollBytes(of: renderedText(path: path, width: columns), columns: columns, rows: height)
                func ratio(_ ours: Int, _ theirs: Int) -> String { String(format: "%.2f", Double(ours) / Double(max(1, theirs))) }
                rows.append(BenchmarkRow(area: area, name: "less: bytes per row (k) · per page (b, f) of the same text",
                                         value: less.map { "\($0.row) · \($0.page) (client/less \(ratio(figures.rowScroll, $0.row)) · \(ratio(figures.page, $0.page)))" } ?? "less failed"))
            }
        }
    }
    return rows
}

private struct FeedOutput {
    var rowScroll: Int
    var page: Int
    var keystroke: Int
    var frame: (median: Double, p99: Double)
    /// CPU time of a page step deep in the thread, median, µs.
    var pageCPU: Double
}

/// The client's app on an indexed thread file, drawn by ncurses into a tmpfile.
private func feedOutput(path: String, columns: Int, rows: Int) -> FeedOutput? {
    guard let index = try? ThreadIndex.open(path: path), let header = index.header,
          let output = tmpfile(), let input = fopen("/dev/null", "r") else { return nil }
    defer { fclose(output); fclose(input) }
    guard let screen = try? NCursesScreen(terminalType: "xterm-256color", output: output, input: input, enableModes: false) else { return nil }
    defer { screen.end() }
    screen.resize(columns: columns, rows: rows)
    let thread = CommentThread(id: header.id, title: header.title, author: header.author, created: header.created,
                               body: header.body, users: index.users)
    let app = CommentApp(source: InMemoryThreadSource(thread: thread, store: index, label: "bench.jsonl"), me: index.users[0],
                         columns: columns, rows: rows)
    app.wallTime = Date(timeIntervalSince1970: 1_800_000_000)
    var clock = 0.0
    func frame() {
        app.advance(to: ScrollInstant(seconds: clock))
        let frame = app.render()
        screen.present(frame, full: false)
        app.didPresent(frame)
    }
    /// Sends an event, draws its frames at 60 a second until the feed rests (as the client's
    /// loop does), and returns the bytes ncurses wrote for them all.
    func bytes(for event: InputEvent) -> Int {
        fflush(output)
        let start = ftell(output)
        _ = app.update(event, at: ScrollInstant(seconds: clock))
        frame()
        for _ in 0..<600 where app.nextDeadline.map({ $0.seconds < clock + 30 }) ?? false {
            clock += 1.0 / 60
            frame()
        }
        clock += 1
        frame()
        fflush(output)
        return ftell(output) - start
    }
    screen.present(app.render(), full: true)
    // To the middle of the thread (a click half-way down the scrollbar), then a page up: a
    // million comments are read deep in the file, where only the window around the view is,
    // and a hundred at 200x50 still leave room above for the 40 row steps.
    _ = bytes(for: .mouse(MouseEvent(.left, .press, column: columns - 1, row: rows / 2)))
    _ = bytes(for: .mouse(MouseEvent(.left, .release, column: columns - 1, row: rows / 2)))
    _ = bytes(for: .key(KeyPress(.pageUp)))
    let steps = 40
    let rowScroll = (0..<steps).map { _ in bytes(for: .key(KeyPress(.up, .ctrl))) }.reduce(0, +) / steps
    // Pages alternate up and down so that none of them reaches an end of the thread; each is
    // also timed (thread CPU, the key to the settled frame: decoding, layout and output).
    var pageCPU: [Double] = []
    let page = (0..<10).map { n -> Int in
        let start = threadCPUNanoseconds()
        defer { pageCPU.append(Double(threadCPUNanoseconds() - start) / 1000) }
        return bytes(for: .key(KeyPress(n % 2 == 0 ? .pageUp : .pageDown)))
    }.reduce(0, +) / 10
    let typed = Array("hello world, typing!")
    let keystroke = typed.map { bytes(for: .key(KeyPress(.character($0)))) }.reduce(0, +) / typed.count
    // Frames of wheel-burst glides, one every 1/60 s, timed in this thread's CPU time.
    var samples: [Double] = []
    for burst in 0..<6 {
        for _ in 0..<6 {
            _ = app.update(.mouse(MouseEvent(burst % 2 == 0 ? .wheelUp : .wheelDown, .press, column: 5, row: rows / 2)),
                           at: ScrollInstant(seconds: clock))
            clock += 0.01
        }
        for _ in 0..<90 {
            clock += 1.0 / 60
            let start = threadCPUNanoseconds()
            frame()
            samples.append(Double(threadCPUNanoseconds() - start) / 1000)
        }
    }
    return FeedOutput(rowScroll: rowScroll, page: page, keystroke: keystroke, frame: percentiles(samples),
                      pageCPU: percentiles(pageCPU).median)
}

/// The thread as the client lays it out, as plain text (the render verb).
private func renderedText(path: String, width: Int) -> String {
    var bytes: [UInt8] = []
    let context = CommandContext(environment: [:], now: { Date(timeIntervalSince1970: 1_800_000_000) },
                                 writeOutput: { bytes += $0 }, writeError: { _ in },
                                 readInput: { _ in [] }, inputIsTerminal: false)
    _ = Verb.render.run([path, "--width", "\(width)", "--plain"], context: context)
    return String(decoding: bytes, as: UTF8.self)
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
                                 readInput: { _ in [] }, inputIsTerminal: false)
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
