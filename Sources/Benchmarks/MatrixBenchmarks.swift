import Foundation
import CommentTUI
import ThreadModel
import ScrollEngine
import SynapseFixture

/// A room on a loopback Synapse: opening 10,000 messages to the newest screen, another client's
/// message reaching our screen, Enter to pending and to confirmed, and paging to the first message.
func matrixBenchmarks() -> [BenchmarkRow] {
    do {
        return try MatrixBenchmark().run()
    } catch {
        return [BenchmarkRow(area: "matrix", name: "could not run", value: "\(error)")]
    }
}

private struct MatrixBenchmark {
    /// 10,000 by default; `COMMENT_TUI_BENCH_MATRIX_MESSAGES` sets another size for a quick look.
    static let messages = ProcessInfo.processInfo.environment["COMMENT_TUI_BENCH_MATRIX_MESSAGES"].flatMap(Int.init) ?? 10_000

    func run() throws -> [BenchmarkRow] {
        let server = SynapseServer()
        try server.start()
        defer { server.stop() }
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let writer = try server.register(localpart: "writer-\(suffix)")
        let reader = try server.register(localpart: "reader-\(suffix)")
        let other = server.client(for: writer)
        let room = try other.createRoom(name: "Ten thousand", preset: .publicChat)
        _ = try server.client(for: reader).join(room)
        let filled = benchNow()
        try fill(room, count: Self.messages, with: other)
        let fillSeconds = Double(benchNow() - filled) / 1e9
        // Let the homeserver finish what the writes left it (caches, background jobs) first.
        Thread.sleep(forTimeInterval: 10)
        let client = MatrixClient(homeserver: server.baseURL, accessToken: reader.accessToken)
        let address = MatrixRoomAddress(locator: "matrix:\(room)")!

        var rows = [BenchmarkRow(area: "matrix", name: "fill \(Self.messages) messages (setup, 4 senders)", value: String(format: "%.1f s", fillSeconds))]
        // Open to the newest screen: the source's requests, the app, the first frame.
        var opens: [Double] = []
        for _ in 0..<5 {
            let start = benchNow()
            let source = try MatrixThreadSource(client: client, address: address, me: reader.userID, environment: [:], follows: false)
            let app = CommentApp(source: source, me: source.reader, columns: 100, rows: 30)
            _ = app.render()
            opens.append(Double(benchNow() - start) / 1e6)
        }
        let open = percentiles(opens)
        rows.append(BenchmarkRow(area: "matrix", name: "open \(Self.messages)-message room to newest screen (median, worst of 5)",
                                 value: String(format: "%.0f ms, %.0f ms", open.median, opens.max() ?? 0)))

        let source = try MatrixThreadSource(client: client, address: address, me: reader.userID, environment: [:])
        defer { source.stop() }
        let app = CommentApp(source: source, me: source.reader, columns: 100, rows: 30)
        app.receive(source.takeUpdates())
        var deliveries: [Double] = []
        for n in 0..<40 {
            let body = "delivery probe \(n)"
            let start = benchNow()
            try other.sendText(roomID: room, body: body)
            // As the client's loop does: asleep in poll() until the sync thread wakes it.
            try waitUntil(woken: source.updatesReady) {
                app.receive(source.takeUpdates())
                // As the loop's frames do: the feed follows the newest (a short glide) over time.
                app.advance(to: ScrollInstant(seconds: app.now.seconds + 1))
                return screenLines(app).contains { $0.contains(body) }
            }
            deliveries.append(Double(benchNow() - start) / 1e6)
        }
        let sorted = deliveries.sorted()
        rows.append(BenchmarkRow(area: "matrix", name: "another client's message → on our screen (median, p95, max of 40)",
                                 value: String(format: "%.0f ms, %.0f ms, %.0f ms", sorted[20], sorted[37], sorted[39])))

        var pendings: [Double] = []
        var confirms: [Double] = []
        var sameFrame = 0
        for n in 0..<20 {
            let body = "our probe \(n)"
            let start = benchNow()
            _ = app.update(.paste(body))
            _ = app.update(.key(KeyPress(.enter)))
            let frame = screenLines(app)
            pendings.append(Double(benchNow() - start) / 1e6)
            if frame.contains(where: { $0.contains(body) }) && frame.contains(where: { $0.contains("sending…") }) { sameFrame += 1 }
            try waitUntil(woken: source.updatesReady) { app.receive(source.takeUpdates()); return !screenLines(app).contains { $0.contains("sending…") } }
            confirms.append(Double(benchNow() - start) / 1e6)
        }
        rows.append(BenchmarkRow(area: "matrix", name: "Enter → pending shown (median; in the same frame)",
                                 value: String(format: "%.2f ms; %d of 20", percentiles(pendings).median, sameFrame)))
        let confirm = percentiles(confirms)
        rows.append(BenchmarkRow(area: "matrix", name: "Enter → confirmed (median, p99 of 20)",
                                 value: String(format: "%.0f ms, %.0f ms", confirm.median, confirm.p99)))

        // From the newest screen to the first message: every page the feed asks for on the way up.
        let history = try MatrixThreadSource(client: client, address: address, me: reader.userID, environment: [:], follows: false)
        let reading = CommentApp(source: history, me: history.reader, columns: 100, rows: 30)
        let start = benchNow()
        var pages = 0
        var pageTimes: [Double] = []
        var appTimes: [Double] = []
        while history.hasOlderComments, pages < 1000 {
            let pageStart = benchNow()
            _ = reading.update(.key(KeyPress(.home, .ctrl)))
            reading.advance(to: ScrollInstant(seconds: reading.now.seconds + 5))
            var arrived = false
            var updates: [ThreadUpdate] = []
            try waitUntil(woken: history.updatesReady) {
                updates += history.takeUpdates()
                arrived = updates.contains { if case .olderComments = $0 { true } else { false } }
                return arrived
            }
            let received = benchNow()
            reading.receive(updates)
            _ = reading.render()
            pages += 1
            pageTimes.append(Double(benchNow() - pageStart) / 1e6)
            appTimes.append(Double(benchNow() - received) / 1e6)
        }
        let seconds = Double(benchNow() - start) / 1e9
        let page = percentiles(pageTimes)
        let appPart = percentiles(appTimes)
        rows.append(BenchmarkRow(area: "matrix", name: "one older page asked → shown; of which the app (median, p99)",
                                 value: String(format: "%.0f ms, %.0f ms; %.1f ms, %.1f ms", page.median, page.p99, appPart.median, appPart.p99)))
        rows.append(BenchmarkRow(area: "matrix", name: "scroll newest → first message (pages, time, comments)",
                                 value: String(format: "%d pages, %.1f s, %d comments", pages, seconds, reading.commentCount)))
        rows += try offlineCopyFigures(room: room, client: client, address: address, reader: reader, writer: other)
        rows.append(try importFigure(server: server, reader: reader))
        return rows
    }

    /// Importing a 1,000-comment thread file into a new room: comments a second.
    private func importFigure(server: SynapseServer, reader: MatrixTestAccount) throws -> BenchmarkRow {
        let path = NSTemporaryDirectory() + "comment-tui-bench-import-\(getpid()).jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var bytes: [UInt8] = []
        try ThreadGenerator(comments: 1000, users: 30, seed: 7).write { bytes += $0 }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let thread = try ThreadFile.read(path: path).thread
        let room = try server.client(for: reader).createRoom(name: "Imported", preset: .publicChat)
        let client = MatrixClient(homeserver: server.baseURL, accessToken: reader.accessToken)
        let source = try MatrixThreadSource(client: client, address: MatrixRoomAddress(locator: "matrix:\(room)")!, me: reader.userID,
                                            environment: [:], follows: false)
        let start = benchNow()
        let outcome = try source.importComments(of: thread)
        let seconds = Double(benchNow() - start) / 1e9
        return BenchmarkRow(area: "matrix", name: "import a 1,000-comment thread file (comments a second)",
                            value: String(format: "%.0f a second (%d in %.1f s)", Double(outcome.posted) / seconds, outcome.posted, seconds))
    }

    /// Re-opening from the offline copy, and catching up after 1,000 messages missed.
    private func offlineCopyFigures(room: String, client: MatrixClient, address: MatrixRoomAddress, reader: MatrixTestAccount,
                                    writer: MatrixTestClient) throws -> [BenchmarkRow] {
        let folder = NSTemporaryDirectory() + "bench-matrix-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = ["XDG_CACHE_HOME": folder + "/cache", "XDG_DATA_HOME": folder + "/data"]
        func openFromCopy(follows: Bool) throws -> MatrixThreadSource {
            try MatrixThreadSource(client: client, address: address, me: reader.userID, environment: environment, follows: follows)
        }
        try openFromCopy(follows: false).close()  // the first open writes the copy
        var opens: [Double] = []
        for _ in 0..<5 {
            let start = benchNow()
            let source = try openFromCopy(follows: false)
            _ = CommentApp(source: source, me: source.reader, columns: 100, rows: 30).render()
            opens.append(Double(benchNow() - start) / 1e6)
        }
        var rows = [BenchmarkRow(area: "matrix", name: "re-open from the offline copy to the first screen (median, worst of 5)",
                                 value: String(format: "%.1f ms, %.1f ms", percentiles(opens).median, opens.max() ?? 0))]
        // Closed with the copy saved; 1,000 messages come; opened again from the copy.
        let follower = try openFromCopy(follows: true)
        follower.close()
        try fill(room, count: 1000, with: writer)
        Thread.sleep(forTimeInterval: 5)
        let start = benchNow()
        let again = try openFromCopy(follows: true)
        defer { again.close() }
        let app = CommentApp(source: again, me: again.reader, columns: 100, rows: 30)
        _ = app.render()
        let firstScreen = Double(benchNow() - start) / 1e6
        var caughtUp = 0
        try waitUntil(woken: again.updatesReady) {
            let updates = again.takeUpdates()
            // A long absence comes as a gap filled a few pages at a time as the reader reaches it:
            // the reader here goes straight up to it each time.
            for update in updates {
                if case .gap(let id) = update { again.fillGap(id) }
                if case .gapFilled(let id, _, false) = update { again.fillGap(id) }
            }
            // What was missed comes appended, or as a gap the source fills from `/messages`.
            caughtUp += updates.flatMap { update -> [Comment] in
                switch update {
                case .commentsAppended(let list), .gapFilled(_, let list, _): list
                default: []
                }
            }.count
            app.receive(updates)
            return caughtUp >= 1000
        }
        let all = Double(benchNow() - start) / 1e6
        rows.append(BenchmarkRow(area: "matrix", name: "1,000 messages missed: first screen from the copy · all caught up",
                                 value: String(format: "%.1f ms · %.0f ms", firstScreen, all)))
        return rows
    }

    /// Sends `count` messages from four threads (the order between threads does not matter here).
    private func fill(_ room: String, count: Int, with client: MatrixTestClient) throws {
        let failures = FailureCount()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for n in stride(from: worker, to: count, by: 4) {
                if (try? client.sendText(roomID: room, body: "message \(n + 1): filling the room with text of a typical length")) == nil {
                    failures.add()
                }
            }
        }
        if failures.value > 0 { throw BenchmarkFailure("\(failures.value) sends failed while filling the room") }
    }

    /// Checks `done` each time `woken` is readable (else every millisecond), for at most 30 s.
    private func waitUntil(woken: FileDescriptor? = nil, _ what: String = #function, line: Int = #line,
                           _ done: () throws -> Bool) throws {
        let deadline = benchNow() + 30_000_000_000
        while try !done() {
            guard benchNow() < deadline else { throw BenchmarkFailure("timed out waiting (\(what), line \(line))") }
            if let woken { _ = try Poll.readable([woken], timeout: 1) } else { usleep(1000) }
        }
    }
}

/// The rows of the app's next frame, as text.
private func screenLines(_ app: CommentApp) -> [String] {
    let buffer = app.render().buffer
    return (0..<buffer.rows).map(buffer.line)
}
