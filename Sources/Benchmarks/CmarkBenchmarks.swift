import CommentTUI
import Foundation
import ThreadModel
#if canImport(Glibc)
import Glibc
#endif

/// Markdown against `cmark-gfm` on the same bodies: the 100,000 comments of a generated thread,
/// parsed alone, and parsed, laid out at 80 columns and rendered as plain rows; each figure the
/// best of three runs of CPU time, with its ratio to `cmark-gfm` rendering the same bodies to HTML
/// (its parse and its renderer: the CLI has no parse-only mode). `cmark-gfm` is installed with
/// apt-get where missing and allowed.
func cmarkBenchmarks() -> [BenchmarkRow] {
    let area = "markdown vs cmark-gfm"
    let count = 100_000
    let directory = NSTemporaryDirectory() + "comment-tui-bench-cmark-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let threadPath = directory + "/thread.jsonl"
    _ = generateThread(comments: count, users: 1_000, to: threadPath)
    guard let index = try? ThreadIndex.open(path: threadPath) else {
        return [BenchmarkRow(area: area, name: "generated thread", value: "failed to open")]
    }
    let bodies = (0..<index.commentCount).compactMap { try? index.comment(at: $0).get().body }
    let ids = Dictionary(index.users.map { ($0.handle.lowercased(), $0.id) }, uniquingKeysWith: { first, _ in first })
    let handles: (String) -> String? = { ids[$0.lowercased()] }
    let bytes = bodies.reduce(0) { $0 + $1.utf8.count }
    var rows = [BenchmarkRow(area: area, name: "bodies", value: "\(bodies.count) comments, \(bytes / 1024) KB")]

    // cmark-gfm reads the bodies as one document, each a paragraph run of its own.
    let markdownPath = directory + "/bodies.md"
    FileManager.default.createFile(atPath: markdownPath, contents: Data(bodies.joined(separator: "\n\n").utf8))
    let cmark = cmarkCPU(markdownPath)
    rows.append(BenchmarkRow(area: area, name: "cmark-gfm -e strikethrough -e autolink, to HTML (CPU, best of 3)",
                             value: cmark.map { format($0) } ?? "cmark-gfm missing: apt-get install cmark-gfm"))

    let parse = bestCPU {
        var runs = 0
        for body in bodies { runs &+= CommentMarkup.parseRuns(body, handles: handles).runs.count }
        return runs
    }
    rows.append(BenchmarkRow(area: area, name: "parse to runs (CPU, best of 3)", value: format(parse, against: cmark)))

    let attributed = bestCPU {
        var characters = 0
        // Counting its runs, not its characters: the character view's walk would cost more than the build.
        for body in bodies { characters &+= CommentMarkup.parse(body, handles: handles).runs.count }
        return characters
    }
    rows.append(BenchmarkRow(area: area, name: "parse to AttributedString (CPU, best of 3)", value: format(attributed, against: cmark)))

    let rendered = bestCPU {
        var written = 0
        for body in bodies {
            for row in PlainLayout.rows(of: body, width: 80, handles: handles) { written &+= row.utf8.count + 1 }
        }
        return written
    }
    rows.append(BenchmarkRow(area: area, name: "parse + layout at 80 + plain rows (CPU, best of 3)", value: format(rendered, against: cmark)))

    // The layout alone: the bodies parsed first, untimed.
    let parsed = bodies.map { CommentMarkup.parseRuns($0, handles: handles) }
    let laidOut = bestCPU {
        var written = 0
        for runs in parsed {
            for row in PlainLayout.rows(of: runs, width: 80) { written &+= row.utf8.count + 1 }
        }
        return written
    }
    rows.append(BenchmarkRow(area: area, name: "layout at 80 + plain rows of parsed bodies (CPU, best of 3)", value: format(laidOut, against: cmark)))

    // The whole verb as a user runs it: reading the file, headers, reactions, styles, output.
    let client = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("comment-tui").path
    var render = Double.infinity
    if FileManager.default.isExecutableFile(atPath: client) {
        for _ in 0..<3 {
            let before = childrenCPU()
            guard run(client, ["render", threadPath, "--width", "80", "--plain", "--now", "2026-11-28T00:00:00Z"]) else { break }
            render = min(render, childrenCPU() - before)
        }
    }
    rows.append(BenchmarkRow(area: area, name: "comment-tui render --plain --width 80 of the thread (CPU, best of 3)",
                             value: render.isFinite ? format(render, against: cmark) : "comment-tui beside the bench missing: build it in release too"))
    return rows
}

/// The best of three CPU times of `work`, in seconds; its result is checked so it is not optimised away.
private func bestCPU(_ work: () -> Int) -> Double {
    var best = Double.infinity
    for _ in 0..<3 {
        let start = threadCPUNanoseconds()
        let result = work()
        best = min(best, Double(threadCPUNanoseconds() - start) / 1e9)
        precondition(result > 0, "the work produced something")
    }
    return best
}

/// The best of three CPU times (user + system) of `cmark-gfm` on `path`, installing it first
/// where missing; nil when it cannot run.
private func cmarkCPU(_ path: String) -> Double? {
    let binary = "/usr/bin/cmark-gfm"
    if !FileManager.default.isExecutableFile(atPath: binary), getuid() == 0 {
        _ = run("/usr/bin/apt-get", ["install", "-y", "-qq", "cmark-gfm"], environment: ["DEBIAN_FRONTEND": "noninteractive"])
    }
    guard FileManager.default.isExecutableFile(atPath: binary) else { return nil }
    var best = Double.infinity
    for _ in 0..<3 {
        let before = childrenCPU()
        guard run(binary, ["-e", "strikethrough", "-e", "autolink", path]) else { return nil }
        best = min(best, childrenCPU() - before)
    }
    return best
}

/// Runs a program to its end, its output discarded; whether it succeeded.
private func run(_ path: String, _ arguments: [String], environment: [String: String] = [:]) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}

/// CPU seconds (user + system) of the children waited for so far.
private func childrenCPU() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

private func format(_ seconds: Double, against cmark: Double? = nil) -> String {
    let time = String(format: "%.3f s", seconds)
    guard let cmark, cmark > 0 else { return time }
    return time + String(format: " (%.1fx cmark-gfm)", seconds / cmark)
}
