import Foundation
import CommentTUI
import ThreadModel

/// `post` into a thread of 1,000,000 generated comments (issue 22, item 8): posts a second in
/// one process (the verb as `comment-tui post` runs it, users kept between posts), and with ten
/// `comment-tui post` processes at once, as ten writers would.
func postBenchmarks() -> [BenchmarkRow] {
    let directory = NSTemporaryDirectory() + "comment-tui-bench-post-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/thread.jsonl"
    let megabytes = generateThread(comments: 1_000_000, users: 10_000, to: path)
    let environment = ["XDG_DATA_HOME": directory + "/data"]
    guard let handle = try? ThreadIndex.open(path: path).users.first?.handle else { return [] }
    var rows: [BenchmarkRow] = []

    func post(_ body: String, keepingUsers: Bool = true) -> Int32 {
        let context = CommandContext(environment: keepingUsers ? environment : [:], now: Date.init, writeOutput: { _ in },
                                     writeError: { _ in }, readInput: { _ in [] }, inputIsTerminal: true)
        return Verb.post.run([path, "--as", handle, "--body", body], context: context)
    }
    // As before: no state directory, so each post reads the whole file.
    var start = benchNow()
    for n in 0..<10 { precondition(post("unkept \(n)", keepingUsers: false) == 0, "posted") }
    rows.append(BenchmarkRow(area: "post", name: "posts a second, one process, 1,000,000 comments, users not kept (each reads the file)",
                             value: String(format: "%.1f", 10 / (Double(benchNow() - start) / 1e9))))
    start = benchNow()
    precondition(post("first, which reads the whole file") == 0, "posted")
    rows.append(BenchmarkRow(area: "post", name: "first post, 1,000,000 comments (\(megabytes) MB): reads the file, keeps the users",
                             value: "\(Double(benchNow() - start) / 1e6) ms"))
    let count = 400
    start = benchNow()
    for n in 0..<count { precondition(post("post \(n)") == 0, "posted") }
    let seconds = Double(benchNow() - start) / 1e9
    rows.append(BenchmarkRow(area: "post", name: "posts a second, one process, 1,000,000 comments (each fsynced)",
                             value: "\(Int(Double(count) / seconds))"))

    // Ten writers, each a `comment-tui post` process, 20 posts each; and the same into a thread of
    // 20 comments, where nearly all of a post's time is the process starting.
    let small = directory + "/small.jsonl"
    _ = generateThread(comments: 20, users: 10, to: small)
    for (path, label) in [(path, "1,000,000 comments"), (small, "20 comments (the process alone)")] {
        rows += processRate(path: path, label: label, handle: handle, environment: environment)
    }
    return rows
}

/// Posts a second with ten `comment-tui post` processes at once, 20 posts each.
private func processRate(path: String, label: String, handle: String, environment: [String: String]) -> [BenchmarkRow] {
    var rows: [BenchmarkRow] = []
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("comment-tui").path
    if FileManager.default.isExecutableFile(atPath: executable) {
        let start = benchNow()
        let writers = (0..<10).map { writer in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "for n in $(seq 20); do \"$0\" post \"$1\" --as \"$2\" --body \"writer \(writer) post $n\" >/dev/null || exit 1; done",
                                 executable, path, handle]
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            try? process.run()
            return process
        }
        writers.forEach { $0.waitUntilExit() }
        let elapsed = Double(benchNow() - start) / 1e9
        let ok = writers.allSatisfy { $0.terminationStatus == 0 }
        rows.append(BenchmarkRow(area: "post", name: "posts a second, ten `comment-tui post` processes at once, \(label)",
                                 value: ok ? "\(Int(200 / elapsed))" : "a writer failed"))
    }
    return rows
}
