import Foundation
import CommentTUI
import ThreadModel
import ScrollEngine
import SynapseFixture

/// A room of 100,000 messages read from the newest screen to the first message with PageUp held
/// (30 a second, a keyboard's repeat): pages and bytes fetched, PageUps that found no comments
/// loaded above the view (a wait on the network), and the reading process's peak memory.
///
/// Filling such a room takes Synapse most of an hour here, so the homeserver's directory is
/// kept (`COMMENT_TUI_BENCH_MATRIX_SCALE_DIR`, default `.build/bench-matrix-scale`) and later runs
/// read the same room. `COMMENT_TUI_BENCH_MATRIX_SCALE_MESSAGES` sets another size.
func matrixScaleBenchmarks() -> [BenchmarkRow] {
    do {
        return try MatrixScaleBenchmark().run()
    } catch {
        return [BenchmarkRow(area: "matrix scale", name: "could not run", value: "\(error)")]
    }
}

private struct MatrixScaleBenchmark {
    static let environment = ProcessInfo.processInfo.environment
    static let messages = environment["COMMENT_TUI_BENCH_MATRIX_SCALE_MESSAGES"].flatMap(Int.init) ?? 100_000
    static let directory = URL(fileURLWithPath: environment["COMMENT_TUI_BENCH_MATRIX_SCALE_DIR"]
        ?? FileManager.default.currentDirectoryPath + "/.build/bench-matrix-scale-\(messages)")

    /// What a filled room's run needs again: written once the room is full.
    struct FilledRoom: Codable {
        var room: String
        var reader: String
        var token: String
        var messages: Int
        var fillSeconds: Double
    }

    func run() throws -> [BenchmarkRow] {
        try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
        let server = SynapseServer.kept(in: Self.directory)
        try server.start()
        defer { server.stop() }
        let filled = try filledRoom(on: server)
        Thread.sleep(forTimeInterval: 5)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["--scroll-room-only", server.baseURL.absoluteString, filled.room, filled.reader, filled.token]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        let figures = text.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard child.terminationStatus == 0, figures.count == 8 else {
            throw BenchmarkFailure("the reading process failed (status \(child.terminationStatus)): \(text)")
        }
        let area = "matrix scale"
        let count = filled.messages
        return [
            BenchmarkRow(area: area, name: "fill \(count) messages (setup, once; the room is kept)",
                         value: String(format: "%.0f s", filled.fillSeconds)),
            BenchmarkRow(area: area, name: "PageUp ×30/s from the newest (PageUps, time, comments reached of \(count))",
                         value: String(format: "%.0f, %.1f s, %.0f", figures[0], figures[1], figures[2])),
            BenchmarkRow(area: area, name: "pages fetched, MB fetched (opening and paging)",
                         value: String(format: "%.0f, %.1f MB", figures[3], figures[4] / 1e6)),
            BenchmarkRow(area: area, name: "PageUps with no comment loaded above the view (waits)",
                         value: String(format: "%.0f", figures[5])),
            BenchmarkRow(area: area, name: "comments held in memory at the end (of those reached)",
                         value: String(format: "%.0f", figures[6])),
            BenchmarkRow(area: area, name: "peak memory (VmHWM) of the reading process",
                         value: String(format: "%.1f MB", figures[7] / 1024)),
        ]
    }

    /// The kept room, or a new one filled now (8 senders) and recorded for the next run.
    private func filledRoom(on server: SynapseServer) throws -> FilledRoom {
        let record = Self.directory.appendingPathComponent("room.json")
        if let data = try? Data(contentsOf: record), let room = try? JSONDecoder().decode(FilledRoom.self, from: data),
           room.messages == Self.messages {
            return room
        }
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let writer = try server.register(localpart: "writer-\(suffix)")
        let reader = try server.register(localpart: "reader-\(suffix)")
        let sender = server.client(for: writer)
        let room = try sender.createRoom(name: "A hundred thousand", preset: .publicChat)
        _ = try server.client(for: reader).join(room)
        let start = benchNow()
        let failures = FailureCount()
        let workers = 8
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for n in stride(from: worker, to: Self.messages, by: workers) {
                if (try? sender.sendText(roomID: room, body: "message \(n + 1): filling the room with text of a typical length")) == nil {
                    failures.add()
                }
                if worker == 0, n % 5000 == 0 { FileHandle.standardError.write(Data("filled ~\(n)\n".utf8)) }
            }
        }
        if failures.value > 0 { throw BenchmarkFailure("\(failures.value) sends failed while filling the room") }
        let filled = FilledRoom(room: room, reader: reader.userID, token: reader.accessToken, messages: Self.messages,
                                fillSeconds: Double(benchNow() - start) / 1e9)
        try JSONEncoder().encode(filled).write(to: record)
        return filled
    }
}

/// The reading process's whole job: open the room as the client does (no offline copy), hold
/// PageUp at 30 a second in real time while taking the source's pages as the loop would, until
/// the first message is on screen or the time limit; prints "<PageUps> <seconds> <comments> <pages> <bytes>
/// <waits> <comments held> <VmHWM kB>".
func runScrollRoomOnly(arguments: [String]) {
    guard arguments.count == 4, let homeserver = URL(string: arguments[0]) else { exit(2) }
    let client = MatrixClient(homeserver: homeserver, accessToken: arguments[3])
    guard let address = MatrixRoomAddress(locator: "matrix:\(arguments[1])"),
          let source = try? MatrixThreadSource(client: client, address: address, me: arguments[2], environment: [:], follows: false)
    else { exit(1) }
    let app = CommentApp(source: source, me: source.reader, columns: 100, rows: 30)
    _ = app.render()
    let start = benchNow()
    let interval: UInt64 = 1_000_000_000 / 30
    var presses = 0
    var waits = 0
    var pages = 0
    var next = start
    func atTop() -> Bool { app.feedTop.comment < 0 || (app.feedTop.comment == 0 && app.feedTop.row == 0) }
    // Bounded in time (`COMMENT_TUI_BENCH_MATRIX_SCALE_SECONDS`, an hour by default): the
    // homeserver's pages set the pace once the view waits at the top of what is loaded.
    let limit = ProcessInfo.processInfo.environment["COMMENT_TUI_BENCH_MATRIX_SCALE_SECONDS"].flatMap(Double.init) ?? 3600
    while Double(benchNow() - start) / 1e9 < limit, !(atTop() && !source.hasOlderComments) {
        if source.hasOlderComments, atTop() { waits += 1 }
        _ = app.update(.key(KeyPress(.pageUp)))
        presses += 1
        next += interval
        // Until the next press: the loop's poll on the source, then the frame.
        while benchNow() < next {
            let left = Double(max(0, Int64(next) - Int64(benchNow()))) / 1e9
            if let ready = source.updatesReady, !((try? Poll.readable([ready], timeout: left)) ?? []).isEmpty {
                let updates = source.takeUpdates()
                pages += updates.filter { if case .olderComments = $0 { true } else { false } }.count
                app.receive(updates)
            }
        }
        app.advance(to: ScrollInstant(seconds: Double(benchNow() - start) / 1e9))
        _ = app.render()
    }
    let seconds = Double(benchNow() - start) / 1e9
    let bytes = client.bytesReceived + source.bytesReceived
    print("\(presses) \(seconds) \(app.commentCount) \(pages) \(bytes) \(waits) \(app.commentsHeld) \(peakResidentKilobytes())")
}
