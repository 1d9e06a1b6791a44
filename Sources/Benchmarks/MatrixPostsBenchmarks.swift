import Foundation
import CommentTUI
import SynapseFixture

/// Posts in a room of 1,000 posts and 50,000 replies (issue 32's "Measure", `MatrixPostsRoom`):
/// home's first screen listing the room's posts and opening the post of 5,000 replies to its
/// newest screen, each in a new client with no cache (`runPostsOnly`, 3 runs after one that meets the homeserver just started, a device of its
/// own each), with the client's peak memory; beside them what the homeserver takes to answer
/// the two requests posts are read with, the newest page of posts (`/threads`) and of a post's
/// replies (`/relations`), each timed alone.
func matrixPostsBenchmarks() -> [BenchmarkRow] {
    do {
        let server = SynapseServer.kept(in: MatrixPostsRoom.directory)
        try server.start()
        defer { server.stop() }
        let room = try MatrixPostsRoom.filled(on: server)
        Thread.sleep(forTimeInterval: 5)
        let reader = MatrixTestClient(baseURL: server.baseURL, accessToken: room.readerToken, userID: room.reader)
        let escapedRoom = MatrixTestClient.escape(room.room)
        func timed(_ path: String, _ query: [String: String]) throws -> [Double] {
            try (0..<5).map { _ in
                let start = benchNow()
                try reader.call("GET", path, query: query)
                return Double(benchNow() - start) / 1e6
            }
        }
        let threads = try timed("/_matrix/client/v1/rooms/\(escapedRoom)/threads", ["limit": "30"])
        let relations = try timed("/_matrix/client/v1/rooms/\(escapedRoom)/relations/\(MatrixTestClient.escape(room.busiest))/m.thread",
                                  ["dir": "b", "limit": "30"])
        let newestEvent = try reader.call("GET", "/_matrix/client/v3/rooms/\(escapedRoom)/event/\(MatrixTestClient.escape(room.busiestNewest))")
        let newestBody = ((newestEvent["content"] as? [String: Any])?["body"] as? String) ?? ""
        // "reply 4997: …": the number and its colon are that reply's alone.
        let newest = String(newestBody.prefix { $0 != ":" }) + ":"
        let folder = NSTemporaryDirectory() + "bench-posts-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Run 0 meets the homeserver just started (its caches cold: its first /threads alone takes
        // seconds), reported apart; runs 1–3 meet it as people do, running.
        var runs: [[String: Double]] = []
        for run in 0..<4 {
            let login = try BenchmarkLogin.newDevice(of: room.reader, password: room.readerPassword, on: server.baseURL)
            try BenchmarkLogin.write(login, homeserver: server.baseURL, config: "\(folder)/config-\(run)")
            runs.append(try postsChild([room.reader, room.room, room.busiest, newest], folder: folder, run: run))
        }
        let coldServer = runs[0]
        runs.removeFirst()
        func figures(_ key: String) -> [Double] { runs.compactMap { $0[key] } }
        func met(_ values: [Double], _ target: Double) -> String { (values.max() ?? .infinity) < target ? "met" : "MISSED" }
        let area = "posts"
        func ms(_ values: [Double]) -> String { String(format: "%.1f ms median, %.1f ms worst", values.sorted()[values.count / 2], values.max() ?? 0) }
        let first = figures("first"), open = figures("open"), peak = figures("hwm").map { $0 / 1024 }
        return [
            BenchmarkRow(area: area, name: "home: first screen listing the room's posts, no cache (target < 300 ms; 3 runs)",
                         value: ms(first) + " · " + met(first, 300)),
            BenchmarkRow(area: area, name: "open the post of \(MatrixPostsRoom.busiestReplies) replies from home to its newest (target < 300 ms)",
                         value: ms(open) + " · " + met(open, 300)),
            BenchmarkRow(area: area, name: "the same, the first client after the homeserver started (its caches cold)",
                         value: String(format: "first screen %.0f ms, open %.0f ms", coldServer["first"] ?? 0, coldServer["open"] ?? 0)),
            BenchmarkRow(area: area, name: "peak memory (VmHWM) of the client: home with the room's posts, the post open",
                         value: String(format: "%.1f MB worst of 3", peak.max() ?? 0)),
            BenchmarkRow(area: area, name: "fill \(room.posts) posts, \(room.replies) replies (setup, once; the room is kept)",
                         value: String(format: "%.0f s", room.fillSeconds)),
            BenchmarkRow(area: area, name: "the homeserver alone: newest 30 posts (/threads)", value: ms(threads)),
            BenchmarkRow(area: area, name: "the homeserver alone: newest 30 of \(MatrixPostsRoom.busiestReplies) replies (/relations)",
                         value: ms(relations)),
        ]
    } catch {
        return [BenchmarkRow(area: "posts", name: "could not run", value: "\(error)")]
    }
}

/// Runs the measured client with the benchmark's folders as its `HOME` and `XDG_*` ones (run
/// `run`'s account, a cache of its own), and reads its figures.
private func postsChild(_ arguments: [String], folder: String, run: Int) throws -> [String: Double] {
    let (status, text) = try BenchmarkChild.run(["--posts-only"] + arguments, folder: folder, config: "config-\(run)",
                                                cache: "cache-\(run)", data: "data-\(run)", state: "state-\(run)")
    var figures: [String: Double] = [:]
    for field in text.split(whereSeparator: \.isWhitespace) {
        let parts = field.split(separator: "=")
        if parts.count == 2, let value = Double(parts[1]) { figures[String(parts[0])] = value }
    }
    guard status == 0, figures.count == 3 else {
        throw BenchmarkFailure("the posts child failed with status \(status): \(text)")
    }
    return figures
}
