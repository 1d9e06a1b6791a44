import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A real Synapse homeserver (from PyPI) on 127.0.0.1, with its own throwaway directory.
///
/// By default federation is off; `federating()` makes one that federates over TLS with any
/// other federating server on 127.0.0.1 (`@ann:127.0.0.1:PORT` joins rooms of the other's).
///
/// `@unchecked Sendable`: the mutable state (port, child process) is only touched under `lock`.
public final class SynapseServer: @unchecked Sendable {
    /// The Matrix server name in user IDs and aliases (`@ann:<serverName>`); not a host name.
    public let serverName: String
    /// The directory holding config, signing key, sqlite database, media and logs: temporary
    /// (removed with the server) unless the server was made with `kept(in:)`.
    public let directory: URL
    /// Whether `directory` outlives the server (a benchmark's filled room, reused across runs).
    private let keepsDirectory: Bool

    private let lock = NSLock()
    private var chosenPort: Int?
    private var launched: SynapseLauncher.Launched?

    /// Makes sure the pinned Synapse is installed in `<package root>/.synapse/venv`; returns its python.
    public static func provision() throws -> URL {
        try PythonVenv.synapse.provision()
    }

    /// Rate limits kept instead of the lifted ones, by key (`rc_message`: `{per_second: 0.5, burst_count: 1}`).
    public let rateLimits: [String: String]

    /// The TLS federation listener's port on 127.0.0.1 (part of `serverName`); nil: no federation.
    public let federationPort: Int?

    /// Top-level homeserver settings added as they are (YAML lines).
    public let settings: [String]

    /// A server that will run as `serverName`, without federation; nothing is written or launched until `start()`.
    /// - Parameter rateLimits: limits to keep (for tests of HTTP 429); every other one is lifted.
    /// - Parameter settings: top-level settings added as they are (YAML lines), for a server set
    ///   up otherwise (`encryption_enabled_by_default_for_room_type: all`).
    public convenience init(serverName: String = "test.local", rateLimits: [String: String] = [:], settings: [String] = []) {
        self.init(serverName: serverName, rateLimits: rateLimits, federationPort: nil, settings: settings)
    }

    private init(serverName: String, rateLimits: [String: String], federationPort: Int?, keptIn kept: URL? = nil,
                 settings: [String] = []) {
        self.serverName = serverName
        self.rateLimits = rateLimits
        self.settings = settings
        self.federationPort = federationPort
        keepsDirectory = kept != nil
        directory = kept ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("synapse-\(UUID().uuidString)", isDirectory: true)
        if let kept, let saved = try? String(contentsOf: kept.appendingPathComponent("port"), encoding: .utf8) {
            chosenPort = Int(saved.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// A server whose directory (and so its database) is kept: started again later from the same
    /// directory it has the same port, users and rooms. For data that takes long to make, such as
    /// a benchmark's room of 100,000 messages; tests use throwaway servers.
    public static func kept(in directory: URL, serverName: String = "test.local") -> SynapseServer {
        SynapseServer(serverName: serverName, rateLimits: [:], federationPort: nil, keptIn: directory)
    }

    /// A server that federates with every other federating server on 127.0.0.1.
    ///
    /// It gets a second listener, TLS with a self-signed certificate, on a free port chosen now,
    /// and the server name `127.0.0.1:<that port>`: an IP literal with a port, which other servers
    /// reach directly (no `.well-known`, no SRV, no DNS). Nothing is launched until `start()`.
    public static func federating(rateLimits: [String: String] = [:]) throws -> SynapseServer {
        let port = try LocalPort.free()
        return SynapseServer(serverName: "127.0.0.1:\(port)", rateLimits: rateLimits, federationPort: port)
    }

    deinit {
        stop()
        if !keepsDirectory { try? FileManager.default.removeItem(at: directory) }
    }

    /// The port on 127.0.0.1, chosen by the first `start()` and kept by `restart()`.
    public var port: Int? { lock.withLock { chosenPort } }

    /// `http://127.0.0.1:PORT`; only valid once `start()` has been called.
    public var baseURL: URL {
        guard let port else { preconditionFailure("SynapseServer.baseURL read before start()") }
        return URL(string: "http://127.0.0.1:\(port)")!
    }

    /// The Synapse process id while it runs, else nil.
    public var pid: pid_t? {
        lock.withLock { launched.flatMap { $0.process.isRunning ? $0.process.processIdentifier : nil } }
    }

    /// Whether the Synapse process is alive.
    public var isRunning: Bool { pid != nil }

    /// The last lines of Synapse's log and of its stdout/stderr, for failure messages.
    public var logTail: String {
        let config = configuration(port: port ?? 0)
        return "homeserver.log:\n\(tailOfFile(config.homeserverLog))\nprocess output:\n\(tailOfFile(config.processLog))"
    }

    /// Provisions, writes the config (first time), launches Synapse and waits until the client API answers.
    public func start() throws {
        let python = try Self.provision()
        try lock.withLock {
            guard launched == nil || launched?.process.isRunning == false else { return }
            let port = try chosenPort ?? LocalPort.free()
            chosenPort = port
            let config = configuration(port: port)
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try config.writeUnlessPresent()
                if keepsDirectory { try String(port).write(to: directory.appendingPathComponent("port"), atomically: true, encoding: .utf8) }
            } catch {
                throw SynapseFixtureError("writing the homeserver config in \(directory.path) failed: \(error)")
            }
            if federationPort != nil { try FederationCertificate.writeUnlessPresent(python: python, config: config) }
            launched = try SynapseLauncher.launch(python: python, config: config)
        }
        try waitUntilAnswering(timeout: 60)
    }

    /// SIGTERM, up to 10 s for a clean exit, then SIGKILL; does nothing when not running.
    public func stop() {
        lock.withLock {
            guard let current = launched else { return }
            launched = nil
            let process = current.process
            if process.isRunning {
                kill(process.processIdentifier, SIGTERM)
                if !Self.wait(for: process, seconds: 10) {
                    kill(process.processIdentifier, SIGKILL)
                    _ = Self.wait(for: process, seconds: 5)
                }
            }
            try? current.lifeline.fileHandleForWriting.close()
        }
    }

    /// Stops and starts again on the same ports with the same config, keys, certificate and database.
    public func restart() throws {
        stop()
        try start()
    }

    /// Registers `localpart` with the dummy auth flow; sets the display name when given.
    public func register(localpart: String, password: String = "fixture-password", displayName: String? = nil) throws -> MatrixTestAccount {
        let anonymous = MatrixTestClient(baseURL: baseURL, accessToken: nil, userID: nil)
        var body: [String: Any] = [
            "username": localpart, "password": password, "auth": ["type": "m.login.dummy"],
            "initial_device_display_name": "SynapseFixture",
        ]
        var answer = try anonymous.request(method: "POST", path: "/_matrix/client/v3/register", body: body)
        if answer.status == 401, let session = answer.json["session"] as? String {
            body["auth"] = ["type": "m.login.dummy", "session": session]
            answer = try anonymous.request(method: "POST", path: "/_matrix/client/v3/register", body: body)
        }
        guard answer.status == 200,
              let userID = answer.json["user_id"] as? String,
              let token = answer.json["access_token"] as? String,
              let deviceID = answer.json["device_id"] as? String
        else {
            throw SynapseFixtureError("registering \(localpart) failed: HTTP \(answer.status) \(answer.json)")
        }
        let account = MatrixTestAccount(userID: userID, accessToken: token, deviceID: deviceID, password: password)
        if let displayName {
            try client(for: account).setDisplayName(displayName)
        }
        return account
    }

    /// The token of the application service every fixture server registers: it owns the users
    /// `@import_…` and may post as them with original timestamps.
    public var appServiceToken: String { configuration(port: 0).appServiceToken }

    /// A client acting as `account` (e.g. another user's Element) against this server.
    public func client(for account: MatrixTestAccount) -> MatrixTestClient {
        MatrixTestClient(baseURL: baseURL, accessToken: account.accessToken, userID: account.userID)
    }

    private func configuration(port: Int) -> HomeserverConfig {
        HomeserverConfig(serverName: serverName, port: port, directory: directory, federationPort: federationPort,
                         rateLimitOverrides: rateLimits, extraSettings: settings)
    }

    /// Polls `/_matrix/client/versions` every 50 ms; throws with the logs if Synapse exits or stays silent.
    private func waitUntilAnswering(timeout: TimeInterval) throws {
        var request = URLRequest(url: baseURL.appendingPathComponent("_matrix/client/versions"))
        request.timeoutInterval = 2
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard isRunning else {
                stop()
                throw SynapseFixtureError("starting Synapse failed: the process exited\n\(logTail)")
            }
            if let answer = try? MatrixHTTP.perform(request), answer.status == 200 { return }
            usleep(50_000)
        }
        stop()
        throw SynapseFixtureError("starting Synapse failed: no answer on \(baseURL) within \(Int(timeout)) s\n\(logTail)")
    }

    /// Polls until `process` has been reaped or `seconds` pass; true when it ended.
    private static func wait(for process: Process, seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning {
            if Date() >= deadline { return false }
            usleep(20_000)
        }
        return true
    }
}

extension SynapseServer {
    /// Starts every server at once, each on its own thread (Python's start-up is mostly one
    /// core's work); throws the first failure after all have finished trying.
    public static func startTogether(_ servers: [SynapseServer]) throws {
        let failures = LockedList<Error>()
        DispatchQueue.concurrentPerform(iterations: servers.count) { index in
            do { try servers[index].start() } catch { failures.append(error) }
        }
        if let first = failures.items.first { throw first }
    }
}

/// A list appended to from several threads.
/// `@unchecked Sendable`: `items` is only touched under `lock`.
private final class LockedList<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Element] = []
    func append(_ item: Element) { lock.withLock { stored.append(item) } }
    var items: [Element] { lock.withLock { stored } }
}
