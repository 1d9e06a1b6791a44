import Foundation
import CommentTUI
import ThreadModel
import SynapseFixture

/// Home with an account in 500 joined rooms on a loopback Synapse (issue 31's "Measure"): the
/// first screen with no cache and from the home cache, opening rooms from home, switching
/// among open ones, memory with 500 rooms listed and 10 open, CPU while idle between syncs;
/// each beside its target, and beside what iamb and gomuks document.
///
/// The homeserver and its rooms are made anew each run (nothing is kept between runs); the
/// client runs in a child (`runHomeOnly`) so its memory and CPU are its own.
/// `COMMENT_TUI_BENCH_HOME_ROOMS` sets another number of rooms for a quick look.
func homeBenchmarks() -> [BenchmarkRow] {
    do {
        return try HomeBenchmark().run()
    } catch {
        return [BenchmarkRow(area: "home", name: "could not run", value: "\(error)")]
    }
}

/// What the parent and the child agree on about the rooms' messages.
enum HomeBenchmarkRooms {
    /// The newest message of a room: the child looks for it on the room's first screen.
    static func newestBody(_ roomID: String) -> String { "the newest in \(roomID)" }
}

private struct HomeBenchmark {
    static let rooms = ProcessInfo.processInfo.environment["COMMENT_TUI_BENCH_HOME_ROOMS"].flatMap(Int.init) ?? 500
    /// Rooms opened from home, each with `history` messages (the others have one).
    static let opened = 10
    static let history = 40
    static let coldRuns = 3
    static let cachedRuns = 5

    func run() throws -> [BenchmarkRow] {
        let server = SynapseServer()
        try server.start()
        defer { server.stop() }
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let reader = try server.register(localpart: "reader-\(suffix)", displayName: "Reader")
        let writer = try server.register(localpart: "writer-\(suffix)", displayName: "Writer")
        let made = benchNow()
        let roomIDs = try makeRooms(on: server, reader: reader, writer: writer)
        let setupSeconds = Double(benchNow() - made) / 1e9
        // Let the homeserver finish what the writes left it (caches, background jobs) first.
        Thread.sleep(forTimeInterval: 5)

        let folder = NSTemporaryDirectory() + "bench-home-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let threads = Self.rooms + 1  // and the demo thread, always listed
        let opened = Array(roomIDs.prefix(Self.opened))
        var colds: [HomeChildFigures] = []
        for run in 0..<Self.coldRuns {
            // A device of its own each run: Synapse answers a sync asked again within two minutes
            // (same user, device, filter, position) from its cache, which a cold start never meets.
            try BenchmarkLogin.write(BenchmarkLogin.newDevice(of: reader.userID, password: reader.password, on: server.baseURL),
                                     homeserver: server.baseURL, config: "\(folder)/config-\(run)")
            colds.append(try child(["cold", reader.userID, "\(threads)"] + opened, folder: folder, run: run))
        }
        var cached: [HomeChildFigures] = []
        for _ in 0..<Self.cachedRuns {
            cached.append(try child(["cached", reader.userID, "\(threads)"], folder: folder, run: Self.coldRuns - 1))
        }
        let kept = "cache-\(Self.coldRuns - 1)"
        let cacheBytes = HomeCache(account: reader.userID, environment: ["XDG_CACHE_HOME": "\(folder)/\(kept)"])
            .flatMap { try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int } ?? 0
        let shares = try HomeBenchmarkShares(client: MatrixClient(homeserver: server.baseURL, accessToken: reader.accessToken),
                                             account: reader.userID).rows(openedRoom: opened[0])
        return rows(colds: colds, cached: cached, setupSeconds: setupSeconds, cacheBytes: cacheBytes, shares: shares)
    }

    private func rows(colds: [HomeChildFigures], cached: [HomeChildFigures], setupSeconds: Double, cacheBytes: Int,
                      shares: [BenchmarkRow]) -> [BenchmarkRow] {
        let n = Self.rooms
        func row(_ name: String, _ value: String) -> BenchmarkRow { BenchmarkRow(area: "home", name: name, value: value) }
        func ms(_ value: Double) -> String { value >= 1000 ? String(format: "%.2f s", value / 1000) : String(format: "%.1f ms", value) }
        func verdict(_ measured: Double, under target: Double) -> String { measured < target ? "met" : "MISSED" }
        let coldFirst = colds.map(\.firstScreen)
        let cachedFirst = cached.map(\.firstScreen)
        let opens = colds.flatMap(\.opens)
        let switches = colds.flatMap(\.switches)
        let homes = colds.flatMap(\.homeSwitches)
        let peak = Double(colds.map(\.peakKilobytes).max() ?? 0) / 1024
        let resident = Double(colds.map(\.residentKilobytes).max() ?? 0) / 1024
        let idle = colds.map { $0.idleCPU / max($0.idleSeconds, 1) * 10 }
        let shown = colds.map(\.switchesShowingNewest).reduce(0, +)
        var rows = [
            row("setup: \(n) rooms made, joined, 1 message each (\(Self.opened) with \(Self.history))", String(format: "%.0f s", setupSeconds)),
            row("first screen cold, no cache, \(n) rooms (rows as the whole list has them, counts coming): median · worst of \(colds.count) (a new device each)",
                "\(ms(median(coldFirst))) · \(ms(coldFirst.max() ?? 0)) · target < 1 s: \(verdict(coldFirst.max() ?? 0, under: 1000))"
                    + " · before any sync answer: \(colds.filter(\.beforeAnyAnswer).count) of \(colds.count)"),
            row("whole list cold, \(n + 1) threads with their counts: median · worst of \(colds.count)",
                "\(ms(median(colds.map(\.wholeList)))) · \(ms(colds.map(\.wholeList).max() ?? 0))"),
            row("first screen from the home cache (\(cacheBytes / 1024) KB): median · worst of \(cached.count)",
                "\(ms(median(cachedFirst))) · \(ms(cachedFirst.max() ?? 0)) · target < 150 ms: \(verdict(cachedFirst.max() ?? 0, under: 150))"
                    + " · before any sync answer: \(cached.filter(\.beforeAnyAnswer).count) of \(cached.count)"),
            row("open a room from home to its newest screen, no cache: median · p95 · max of \(opens.count)",
                "\(ms(median(opens))) · \(ms(quantile(opens, 0.95))) · \(ms(opens.max() ?? 0)) · target < 300 ms: \(verdict(median(opens), under: 300)) (median)"),
            row("switch to a room already open, one frame: median · p95 · max of \(switches.count)",
                "\(ms(median(switches))) · \(ms(quantile(switches, 0.95))) · \(ms(switches.max() ?? 0)) · target < 16 ms: \(verdict(quantile(switches, 0.95), under: 16)) (p95)"
                    + " · newest shown: \(shown) of \(switches.count)"),
            row("back to home (\(n + 1) rows), one frame: median · max of \(homes.count)", "\(ms(median(homes))) · \(ms(homes.max() ?? 0))"),
            row("memory, \(n) rooms listed and \(Self.opened) open: peak (VmHWM) · resident then (VmRSS), worst of \(colds.count)",
                String(format: "%.1f MB · %.1f MB", peak, resident) + " · target < 120 MB: \(verdict(peak, under: 120))"),
            row("idle at home between syncs (the real loop, sync long-polling): CPU per 10 s · frames drawn",
                String(format: "%.1f–%.1f ms", (idle.min() ?? 0) * 1000, (idle.max() ?? 0) * 1000)
                    + " · \(colds.map { "\($0.idleFrames)" }.joined(separator: ", ")) · target ≈ 0"),
        ]
        rows += shares
        rows += documentedRows(row)
        return rows
    }

    /// What iamb and gomuks document for the same measures (their issue trackers; none
    /// publishes figures of its own): `docs/Figures.md` cites them.
    private func documentedRows(_ row: (String, String) -> BenchmarkRow) -> [BenchmarkRow] {
        [
            row("iamb, documented: start", "“Syncing…” for several minutes at every start (iamb #392); ~2,000 rooms: slow first sync, a failed one not retried (#351)"),
            row("iamb, documented: memory", "100–300 MB on average, growing with the rooms joined (iamb #414)"),
            row("iamb, documented: from cache · switching · idle CPU", "not documented"),
            row("gomuks, documented: switching rooms", "the interface frozen while a room's history loads, “sometimes a long time” (gomuks #141, 2020)"),
            row("gomuks, documented: start · from cache · memory · idle CPU", "not documented"),
        ]
    }

    /// `rooms` rooms the reader is in, each made by the writer with a name, joined by the reader,
    /// and given its messages (the newest `HomeBenchmarkRooms.newestBody`); 8 at a time.
    private func makeRooms(on server: SynapseServer, reader: MatrixTestAccount, writer: MatrixTestAccount) throws -> [String] {
        let maker = server.client(for: writer)
        let joiner = server.client(for: reader)
        let made = RoomList(count: Self.rooms)
        let failures = FailureCount()
        let workers = 8
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for n in stride(from: worker, to: Self.rooms, by: workers) {
                do {
                    let room = try maker.createRoom(name: String(format: "Room %03d", n + 1), preset: .publicChat)
                    try joiner.join(room)
                    let messages = n < Self.opened ? Self.history : 1
                    for m in 1..<messages {
                        try maker.sendText(roomID: room, body: "message \(m) of \(messages) in room \(n + 1), of a typical length for a chat")
                    }
                    try maker.sendText(roomID: room, body: HomeBenchmarkRooms.newestBody(room))
                    made.set(n, room)
                } catch {
                    failures.add()
                }
                if worker == 0, n % 100 == 0 { FileHandle.standardError.write(Data("home: ~\(n) rooms made\n".utf8)) }
            }
        }
        if failures.value > 0 { throw BenchmarkFailure("\(failures.value) rooms could not be made") }
        return made.all
    }

    /// Runs the child with the benchmark's folders as its `HOME` and `XDG_*` ones (cold run
    /// `run`'s account and home cache), and reads its figures.
    private func child(_ arguments: [String], folder: String, run: Int) throws -> HomeChildFigures {
        let (status, text) = try BenchmarkChild.run(["--home-only"] + arguments, folder: folder, config: "config-\(run)",
                                                    cache: "cache-\(run)", data: "data", state: "state")
        guard status == 0, let figures = HomeChildFigures(line: text) else {
            throw BenchmarkFailure("the home child (\(arguments[0])) failed with status \(status): \(text)")
        }
        return figures
    }
}

/// The rooms made, by index, filled from several threads.
private final class RoomList: @unchecked Sendable {
    private let lock = NSLock()
    private var rooms: [String?]
    init(count: Int) { rooms = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ room: String) { lock.withLock { rooms[index] = room } }
    var all: [String] { lock.withLock { rooms.compactMap { $0 } } }
}

private func median(_ values: [Double]) -> Double { quantile(values, 0.5) }

private func quantile(_ values: [Double], _ q: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]
}
