import Foundation
import CommentTUI
import ThreadModel
import SynapseFixture

/// An end-to-end encrypted room on a loopback Synapse: 10,000 Megolm messages written by our own
/// sending path (several writers at once, each sharing its room keys over Olm), then opened to
/// the newest screen cold (the room keys taken from to-device as it opens) and warm (the keys in
/// the store). An encrypted room has no offline copy (decrypted text never goes to the clear
/// cache), so the warm open is this room's "from cache".
func matrixEncryptedBenchmarks() -> [BenchmarkRow] {
    do {
        return try MatrixEncryptedBenchmark().run()
    } catch {
        return [BenchmarkRow(area: "matrix-e2e", name: "could not run", value: "\(error)")]
    }
}

private struct MatrixEncryptedBenchmark {
    /// 10,000 by default; `COMMENT_TUI_BENCH_MATRIX_MESSAGES` sets another size for a quick look.
    static let messages = ProcessInfo.processInfo.environment["COMMENT_TUI_BENCH_MATRIX_MESSAGES"].flatMap(Int.init) ?? 10_000
    /// Writers sending at once; `COMMENT_TUI_BENCH_ENCRYPTED_WRITERS` sets another number.
    static let writers = ProcessInfo.processInfo.environment["COMMENT_TUI_BENCH_ENCRYPTED_WRITERS"].flatMap(Int.init) ?? 8
    /// Megolm sessions rotate after this many messages: the default (Element's rooms too);
    /// `COMMENT_TUI_BENCH_ENCRYPTED_ROTATION` sets another in the room's settings (as many
    /// room keys for a first open in a smaller room, for a profile).
    static let rotation = ProcessInfo.processInfo.environment["COMMENT_TUI_BENCH_ENCRYPTED_ROTATION"].flatMap(Int.init)
    static let warmOpens = 5

    /// Each account's data and configuration (its crypto store and the store's key).
    let folder = NSTemporaryDirectory() + "comment-tui-bench-encrypted-\(UUID().uuidString)"

    /// An account's device, opened.
    private struct Opened {
        var source: MatrixThreadSource
        var sync: MatrixAccountSync
        /// Milliseconds the room keys took to open (the store read and decrypted).
        var keysMilliseconds: Double
    }

    func run() throws -> [BenchmarkRow] {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = SynapseServer()
        try server.start()
        defer { server.stop() }
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let reader = try server.register(localpart: "reader-\(suffix)")
        let writers = try (0..<Self.writers).map { try server.register(localpart: "writer\($0)-\(suffix)") }
        var settings: [String: Any] = ["algorithm": "m.megolm.v1.aes-sha2"]
        if let rotation = Self.rotation { settings["rotation_period_msgs"] = rotation }
        let encryption: [String: Any] = ["type": "m.room.encryption", "state_key": "", "content": settings]
        let room = try server.client(for: writers[0]).createRoom(name: "Ten thousand, encrypted", preset: .publicChat,
                                                                  initialState: [encryption])
        for account in [reader] + writers.dropFirst() { _ = try server.client(for: account).join(room) }
        guard let address = MatrixRoomAddress(locator: "matrix:\(room)") else { throw BenchmarkFailure("no address for \(room)") }

        // The reader's device keys go up first (its opening's sync), so every writer shares its keys with it.
        _ = try open(address, as: reader, server: server)
        // Each writer's keys go up as its room opens, so the writers share with each other too.
        let writing = try writers.map { try open(address, as: $0, server: server).source }
        defer { writing.forEach { $0.close() } }
        let filled = benchNow()
        try fill(writing)
        let fillSeconds = Double(benchNow() - filled) / 1e9
        // Let the homeserver finish what the writes left it (caches, background jobs) first.
        Thread.sleep(forTimeInterval: 10)

        // Open to the newest screen: the keys' store, the source's requests, the app, the first
        // frame. The first open takes the room keys the writers sent; the later ones find them kept.
        var opens: [Double] = []
        var keyOpens: [Double] = []
        var cpu: [Double] = []
        for n in 0...Self.warmOpens {
            let start = benchNow()
            let startCPU = processCPUMilliseconds()
            let opened = try open(address, as: reader, server: server)
            let app = CommentApp(source: opened.source, me: opened.source.reader, columns: 100, rows: 30)
            let lines = screenLines(app)
            opens.append(Double(benchNow() - start) / 1e6)
            cpu.append(processCPUMilliseconds() - startCPU)
            keyOpens.append(opened.keysMilliseconds)
            opened.source.close()
            // A screen of messages that wait for their keys would time the wrong thing.
            guard lines.contains(where: { $0.contains("filling the room") }), !lines.contains(where: { $0.contains("unable to decrypt") }) else {
                throw BenchmarkFailure("open \(n + 1): the newest screen did not decrypt: \(lines.joined(separator: " / "))")
            }
        }
        let warm = Array(opens.dropFirst())
        let warmKeys = Array(keyOpens.dropFirst())
        let warmCPU = Array(cpu.dropFirst())
        FileHandle.standardError.write(Data("matrix-encrypted: opens \(opens.map { Int($0) }) ms, our CPU \(cpu.map { Int($0) }) ms\n".utf8))
        return [
            BenchmarkRow(area: "matrix-e2e", name: "fill \(Self.messages) encrypted messages (setup, \(Self.writers) writers, ~\(sessions) Megolm sessions)",
                         value: String(format: "%.1f s, %.0f a second", fillSeconds, Double(Self.messages) / fillSeconds)),
            BenchmarkRow(area: "matrix-e2e", name: "open \(Self.messages)-message encrypted room to newest screen, cold: keys from to-device (of which key store; our CPU)",
                         value: String(format: "%.0f ms (%.0f ms; %.0f ms)", opens[0], keyOpens[0], cpu[0])),
            BenchmarkRow(area: "matrix-e2e", name: "the same, warm, \"from cache\": keys in the store, no offline copy by design (median, worst of \(Self.warmOpens); key store, our CPU, medians)",
                         value: String(format: "%.0f ms, %.0f ms; %.0f ms, %.0f ms", percentiles(warm).median, warm.max() ?? 0,
                                       percentiles(warmKeys).median, percentiles(warmCPU).median)),
        ]
    }

    /// The Megolm sessions the writers make (one per `rotation` messages each): the room keys
    /// the reader's first open takes.
    private var sessions: Int {
        (0..<Self.writers).reduce(0) { total, writer in
            let count = (Self.messages - writer + Self.writers - 1) / Self.writers
            let rotation = Self.rotation ?? 100
            return total + (count + rotation - 1) / rotation
        }
    }

    /// Where `account`'s client keeps its data and configuration.
    private func environment(of account: MatrixTestAccount) -> [String: String] {
        let home = folder + "/" + account.userID.filter { $0.isLetter || $0.isNumber || $0 == "-" }
        return ["XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config", "XDG_CACHE_HOME": home + "/cache"]
    }

    /// The room opened as `account`'s device, through a sync (not started) carrying its room keys.
    private func open(_ address: MatrixRoomAddress, as account: MatrixTestAccount, server: SynapseServer) throws -> Opened {
        let client = MatrixClient(homeserver: server.baseURL, accessToken: account.accessToken)
        let environment = environment(of: account)
        let sync = MatrixAccountSync(client: client)
        let start = benchNow()
        var complaints: [String] = []
        guard sync.openRoomKeys(userID: account.userID, deviceID: account.deviceID, environment: environment, complain: { complaints.append($0) }) else {
            throw BenchmarkFailure("the room keys of \(account.userID) did not open: \(complaints.joined(separator: "; "))")
        }
        let keys = Double(benchNow() - start) / 1e6
        let source = try MatrixThreadSource(client: client, address: address, me: account.userID, environment: environment,
                                            follows: false, usesCache: false, accountSync: sync)
        return Opened(source: source, sync: sync, keysMilliseconds: keys)
    }

    /// Posts the messages from the writers at once, each on a thread of its own (not
    /// `concurrentPerform`, which runs as many at once as there are cores: two here), each
    /// through its source's encrypted sending.
    private func fill(_ writing: [MatrixThreadSource]) throws {
        let failures = FailureCount()
        let count = Self.messages
        let done = DispatchGroup()
        for (writer, source) in writing.enumerated() {
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                for n in stride(from: writer, to: count, by: writing.count) {
                    do {
                        _ = try source.post("message \(n + 1): filling the room with text of a typical length", transactionID: "fill-\(n)")
                        if (n + 1) % 1000 == 0 { FileHandle.standardError.write(Data("matrix-encrypted: message \(n + 1) of \(count) sent\n".utf8)) }
                    } catch {
                        failures.add()
                        if failures.value <= 3 { FileHandle.standardError.write(Data("matrix-encrypted: a send failed: \(error)\n".utf8)) }
                    }
                }
            }
        }
        done.wait()
        if failures.value > 0 { throw BenchmarkFailure("\(failures.value) sends failed while filling the room") }
    }
}

/// CPU time (user and system) of this process so far, in milliseconds: the Synapse it waits for is another process.
private func processCPUMilliseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3
}

/// The rows of the app's next frame, as text.
private func screenLines(_ app: CommentApp) -> [String] {
    let buffer = app.render().buffer
    return (0..<buffer.rows).map(buffer.line)
}
