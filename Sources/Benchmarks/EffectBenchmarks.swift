import Foundation
import CommentTUI
import ScrollEngine
import ThreadModel
#if canImport(Glibc)
import Glibc
#endif

/// Text effects through the real ncurses backend into a `tmpfile()` at 100x30, a 256-colour
/// terminal: for a spoiler's dissolve, an arrival, a mention's glow and a search's flash, the
/// frames the app asks for, the bytes ncurses writes per frame and the CPU time per frame
/// (advance, render and present, this thread).
func effectBenchmarks() -> [BenchmarkRow] {
    let cases: [(name: String, start: (CommentApp, inout Double) -> Void)] = [
        ("spoiler dissolve (click)", { app, clock in
            guard let (column, row) = spoilerCell(of: app) else { return }
            _ = app.update(.mouse(MouseEvent(.left, .press, column: column, row: row)), at: ScrollInstant(seconds: clock))
            _ = app.update(.mouse(MouseEvent(.left, .release, column: column, row: row)), at: ScrollInstant(seconds: clock))
        }),
        ("arrival while following", { app, _ in
            app.receive([.commentsAppended([Comment(id: "arrival", author: "u2", created: effectThreadStart,
                                                    body: "A comment that arrives while the feed follows the tail, one line long enough to sweep.")])])
        }),
        ("arrival that mentions the reader (arrival + 2 s glow)", { app, _ in
            app.receive([.commentsAppended([Comment(id: "mention", author: "u2", created: effectThreadStart,
                                                    body: "@ann have a look at this when you can, it mentions you.")])])
        }),
        ("search match's header flash (Ctrl-S, one key)", { app, clock in
            _ = app.update(.key(.ctrl("s")), at: ScrollInstant(seconds: clock))
            _ = app.update(.key(KeyPress(.character("z"))), at: ScrollInstant(seconds: clock))
        }),
    ]
    return cases.map { item in
        let area = "effects 100x30"
        guard let figures = effectFrames(start: item.start) else { return BenchmarkRow(area: area, name: item.name, value: "failed") }
        let bytes = figures.bytes.isEmpty ? 0 : figures.bytes.reduce(0, +) / figures.bytes.count
        let cpu = percentiles(figures.cpu)
        return BenchmarkRow(area: area, name: item.name + ": frames · bytes per frame (mean / max) · CPU per frame (median / max)",
                            value: String(format: "%d · %d / %d B · %.0f / %.0f µs", figures.bytes.count, bytes,
                                          figures.bytes.max() ?? 0, cpu.median, figures.cpu.max() ?? 0))
    }
}

private let effectThreadStart = Date(timeIntervalSince1970: 1_800_000_000)

/// Twenty short comments, then one with a long spoiler and one with a word to search for.
private func effectThread() -> CommentThread {
    let ann = User(id: "u1", handle: "ann", name: "Ann"), bo = User(id: "u2", handle: "bo", name: "Bo")
    var thread = CommentThread(id: "t", title: "Effects", author: ann.id, created: effectThreadStart, body: "", users: [ann, bo])
    for n in 1...20 {
        thread.append(Comment(id: "c\(n)", author: n % 2 == 0 ? ann.id : bo.id, created: effectThreadStart, body: "comment number \(n)"))
    }
    thread.append(Comment(id: "spoiler", author: bo.id, created: effectThreadStart,
                          body: "The ending: ||the butler did it, in the library, with the candlestick, and nobody saw it coming at all||."))
    thread.append(Comment(id: "search", author: ann.id, created: effectThreadStart, body: "the zebra crossing is the one to find"))
    return thread
}

/// Where the first masked spoiler cell is on screen.
private func spoilerCell(of app: CommentApp) -> (Int, Int)? {
    let buffer = app.render().buffer
    for row in 0..<buffer.rows {
        if let column = Array(buffer.line(row)).firstIndex(of: "░") { return (column, row) }
    }
    return nil
}

/// Opens the thread at rest, starts the effect, and draws each frame the app asks for until
/// it asks for none (at most 60 a second, as the loop does).
private func effectFrames(start: (CommentApp, inout Double) -> Void) -> (bytes: [Int], cpu: [Double])? {
    guard let output = tmpfile(), let input = fopen("/dev/null", "r") else { return nil }
    defer { fclose(output); fclose(input) }
    guard let screen = try? NCursesScreen(terminalType: "xterm-256color", output: output, input: input, enableModes: false) else { return nil }
    defer { screen.end() }
    screen.resize(columns: 100, rows: 30)
    let thread = effectThread()
    let app = CommentApp(source: InMemoryThreadSource(thread: thread, label: "bench"), me: thread.users[0], columns: 100, rows: 30)
    app.colorCount = 256
    app.wallTime = effectThreadStart
    var clock = 10.0
    func frame() {
        app.advance(to: ScrollInstant(seconds: clock))
        let frame = app.render()
        screen.present(frame, full: false)
        app.didPresent(frame)
    }
    frame()
    start(app, &clock)
    var bytes: [Int] = [], cpu: [Double] = []
    while bytes.count < 600 {
        fflush(output)
        let before = ftell(output)
        let cpuBefore = threadCPUNanoseconds()
        frame()
        cpu.append(Double(threadCPUNanoseconds() - cpuBefore) / 1000)
        fflush(output)
        bytes.append(ftell(output) - before)
        guard let next = app.nextDeadline else { break }
        clock = max(next.seconds, clock + 1.0 / 60)
    }
    return (bytes, cpu)
}
