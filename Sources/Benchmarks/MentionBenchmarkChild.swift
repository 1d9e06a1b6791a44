import Foundation
import CommentTUI
import ScrollEngine
import ThreadModel
#if canImport(Glibc)
import Glibc
#endif

/// The measured client of `mentionClientRows`, a process of its own so that its peak memory
/// (VmHWM) is the client's alone: `comment-tui-bench --mentions-only PATH HANDLE WAIT`.
///
/// It opens the thread file as `comment-tui PATH --as HANDLE` does (`ThreadFileSource`,
/// `CommentApp`, the first frame, presented as `AppLoop` presents it), lets the loop idle for `WAIT` seconds (poll on what the
/// client polls, taking what becomes ready, as `AppLoop` does; 0: the `@` comes at once), then
/// types `@` and times it to its frame with the list drawn, then `m`, `a`, `r` likewise, then
/// (a comment arrived meanwhile) `@` again. Prints one line of `name=value` fields.
func runMentionsOnly(arguments: [String]) {
    guard arguments.count == 3, let wait = Double(arguments[2]) else { exit(2) }
    let origin = benchNow()
    func seconds() -> Double { Double(benchNow() - origin) / 1e9 }
    func ms(_ since: UInt64) -> String { String(format: "%.2f", Double(benchNow() - since) / 1e6) }
    guard let source = try? ThreadFileSource(path: arguments[0], environment: ProcessInfo.processInfo.environment),
          let me = source.thread.user(handle: arguments[1]) else { exit(1) }
    let app = CommentApp(source: source, me: me, columns: 100, rows: 30)
    let client = CommentClient(thread: app)
    client.advance(to: ScrollInstant(seconds: seconds()))
    client.didPresent(client.render())
    let opened = ms(origin)
    let openPeak = HomeChild.status("VmHWM:"), openResident = HomeChild.status("VmRSS:")
    // Idle turns: whatever the client polls (the file's watch, work done off the loop) is taken.
    let idleEnd = seconds() + wait
    while seconds() < idleEnd {
        let descriptors = client.updateDescriptors
        let ready = (try? Poll.readable(descriptors, timeout: max(0, idleEnd - seconds()))) ?? []
        if !ready.isEmpty { client.descriptorsReady(ready, at: ScrollInstant(seconds: seconds())) }
        client.advance(to: ScrollInstant(seconds: seconds()))
        client.didPresent(client.render())
    }
    func key(_ character: Character) -> (ms: String, frame: Frame) {
        let start = benchNow()
        _ = client.update(.key(KeyPress(.character(character))), at: ScrollInstant(seconds: seconds()))
        client.advance(to: ScrollInstant(seconds: seconds()))
        let frame = client.render()
        client.didPresent(frame)
        return (ms(start), frame)
    }
    let at = key("@")
    // The list's title row names the query: the list is drawn in this frame.
    let titled = (0..<30).contains { at.frame.buffer.line($0).hasPrefix("─ @ ") }
    let peak = HomeChild.status("VmHWM:")
    let resident = HomeChild.status("VmRSS:"), heap = trimmedResidentKilobytes()
    let keys = ["m", "a", "r"].map { key($0).ms }
    // A comment arrives (who wrote last changes), then `@` again: its recency is taken on that key.
    _ = client.update(.key(KeyPress(.escape)), at: ScrollInstant(seconds: seconds()))
    _ = key(" ")
    app.receive([.commentsAppended([Comment(id: "arrived", author: me.id == "u3" ? "u4" : "u3", created: Date(), body: "hi")])])
    client.didPresent(client.render())
    let afterArrival = key("@").ms
    print("open=\(opened) hwmOpen=\(openPeak) rssOpen=\(openResident) heap=\(heap) at=\(at.ms) hwm=\(peak) rss=\(resident) keys=\(keys.joined(separator: ",")) arrival=\(afterArrival) title=\(titled ? 1 : 0)")
    fflush(nil)
    _exit(0)
}

/// VmRSS in kB after the heap gave back what it keeps free (`malloc_trim`): about what is live.
func trimmedResidentKilobytes() -> Int {
    HeapTrim.giveBackFreePages()
    return HomeChild.status("VmRSS:")
}

/// The client's rows: a thread file of `count` users (the ranker benchmark's) and 5,000
/// comments by its participants, opened in a child; the first `@` after 1.5 s idle and right at
/// open, and peak memory with the list shown.
func mentionClientRows() -> [BenchmarkRow] {
    let directory = NSTemporaryDirectory() + "comment-tui-bench-mentions-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var rows: [BenchmarkRow] = []
    for count in [500, 100_000] {
        let path = directory + "/thread-\(count).jsonl"
        guard let handle = writeMentionThread(users: count, to: path) else { continue }
        for wait in [1.5, 0] {
            let runs = (0..<3).compactMap { _ in mentionChild(path: path, handle: handle, wait: wait, home: directory) }
            let when = wait > 0 ? "after \(wait) s idle" : "right at open"
            guard let worst = runs.max(by: { ($0["hwm"] ?? 0) < ($1["hwm"] ?? 0) }), !runs.isEmpty else {
                rows.append(BenchmarkRow(area: "mentions", name: "client, \(count) users: first @ \(when)", value: "child failed"))
                continue
            }
            let at = percentiles(runs.compactMap { $0["at"] }).median
            let open = percentiles(runs.compactMap { $0["open"] }).median
            let keys = runs.compactMap { $0["key"] }.max() ?? 0
            let arrival = percentiles(runs.compactMap { $0["arrival"] }).median
            let drawn = runs.allSatisfy { $0["title"] == 1 } ? "list drawn" : "list NOT drawn"
            rows.append(BenchmarkRow(
                area: "mentions", name: "client, \(count) users: first @ \(when) to its frame, median of \(runs.count)",
                value: String(format: "%.2f ms (%@; open + first frame %.0f ms; m, a, r at most %.2f ms; @ after a comment arrived %.2f ms)",
                              at, drawn, open, keys, arrival)))
            if wait > 0 {
                rows.append(BenchmarkRow(
                    area: "mentions", name: "client, \(count) users: peak memory (VmHWM) with the list shown · at open · resident",
                    value: String(format: "%.1f MB · %.1f MB · %.1f MB", (worst["hwm"] ?? 0) / 1024, (worst["hwmOpen"] ?? 0) / 1024,
                                  (worst["rss"] ?? 0) / 1024)))
                rows.append(BenchmarkRow(
                    area: "mentions", name: "client, \(count) users: resident at open · after the list, free heap trimmed",
                    value: String(format: "%.1f MB · %.1f MB", (worst["rssOpen"] ?? 0) / 1024, (worst["heap"] ?? 0) / 1024)))
            }
        }
    }
    return rows
}

/// One child's figures by name (`keys` as its slowest, `key`).
private func mentionChild(path: String, handle: String, wait: Double, home: String) -> [String: Double]? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
    process.arguments = ["--mentions-only", path, handle, "\(wait)"]
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = home
    environment["XDG_STATE_HOME"] = home + "/state"
    environment["XDG_DATA_HOME"] = home + "/data"
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    guard (try? process.run()) != nil else { return nil }
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    var figures: [String: Double] = [:]
    for field in printed.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
        let parts = field.split(separator: "=", maxSplits: 1)
        guard parts.count == 2 else { continue }
        if parts[0] == "keys" {
            figures["key"] = parts[1].split(separator: ",").compactMap { Double($0) }.max()
        } else {
            figures[String(parts[0])] = Double(parts[1])
        }
    }
    return figures["at"] == nil ? nil : figures
}

/// A thread file of `users` users and 5,000 comments by the benchmark's participants; the
/// handle of one of them to read as.
private func writeMentionThread(users count: Int, to path: String) -> String? {
    let (users, recency) = mentionBenchmarkUsers(count: count)
    let encoder = ThreadRecordEncoder()
    var bytes: [UInt8] = []
    let start = Date(timeIntervalSince1970: 1_736_154_000)
    encoder.append(.thread(ThreadHeader(id: "mentions-\(count)", title: "Mentions at scale", author: users[0].id,
                                        created: start, body: "Who is here?")), to: &bytes)
    for user in users { encoder.append(.user(user), to: &bytes) }
    // Comments in recency order: the later the more recent, as the ranker's recency says.
    for (n, author) in recency.sorted(by: { $0.value < $1.value }).map(\.key).enumerated() {
        encoder.append(.comment(Comment(id: "c\(n)", author: author, created: start.addingTimeInterval(Double(n) * 60),
                                        body: "comment \(n)")), to: &bytes)
    }
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return nil }
    return users[1].handle
}
