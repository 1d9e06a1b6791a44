import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI

/// Numbers from a homeserver clamped before use, with Synapse: a sync and a send rate limited
/// for ages wait the longest rate-limit wait and go on, saying so, and an event from the far
/// future keeps a time its thread file reads back. (Without: MatrixServerNumberTests.)
final class MatrixServerNumberSynapseTests: SharedSynapseTestCase {
    private var servers: [ScriptedHomeserver] = []

    override func tearDown() {
        servers.forEach { $0.stop() }
        servers = []
        super.tearDown()
    }

    /// A 429 asking for 10^13 ms is waited out for the longest rate-limit wait (300 s; 2 s here),
    /// and meanwhile the status bar says `rate limited`, not `live`.
    func testASyncAndASendAskedToWaitForAgesWaitTheLongestRateLimitWaitSayingSoAndGoOn() throws {
        let (bo, ann, room) = try twoUsersInARoom("Rate limited", on: server)
        let upstream = try server.baseURL
        let script = RateLimitScript()
        let front = try ScriptedHomeserver { request in
            if script.limits(request.path) { return MatrixServerNumberTests.limited(milliseconds: "10000000000000") }
            return .forwarded(request, to: upstream)
        }
        servers.append(front)
        var throughFront = ann
        throughFront.client = MatrixClient(homeserver: front.baseURL, accessToken: ann.account.accessToken)
        let source = try open(room, as: throughFront)
        defer { source.stop() }
        source.longestRateLimitWait = 2
        // Caught up: its long poll (30 s) is waiting on Synapse.
        let polling = Date().addingTimeInterval(15)
        while !front.requests.contains(where: { $0.path.hasSuffix("/sync") && $0.target.contains("timeout=30000") }), Date() < polling {
            Thread.sleep(forTimeInterval: 0.1)
        }

        script.limitOnce(["/sync", "/send/"])
        try bo.other.sendText(roomID: room, body: "ends the long poll")
        let mine = comment(by: ann, "sent after the wait")
        XCTAssertEqual(source.send(mine), .pending)
        try bo.other.sendText(roomID: room, body: "while the client waits")
        let updates = try collectUpdates(from: source, timeout: 40) { updates in
            updates.flatMap(\.appended).contains { $0.body == "while the client waits" }
                && updates.contains { if case .sendConfirmed(mine.id) = $0 { true } else { false } }
        }
        XCTAssertFalse(updates.contains { if case .sendFailed = $0 { true } else { false } })
        for path in ["/sync", "/send/"] {
            let waited = try XCTUnwrap(script.waited(path), "\(path) was answered 429 and asked again")
            print("\(path) asked again \(String(format: "%.1f", waited)) s after a 429 asking for 10^13 ms")
            XCTAssertGreaterThan(waited, 1.8, "\(path) waited as long as it may")
            XCTAssertLessThan(waited, 2 + 8, "\(path) did not wait for the server's age")
        }
        let states = updates.compactMap { if case .connection(let state) = $0 { state } else { nil } }
        let limited = try XCTUnwrap(states.firstIndex(of: .rateLimited(retryIn: 2)), "the bar said rate limited: \(states)")
        XCTAssertEqual(states[limited].description, "rate limited — retrying in 2 s")
        XCTAssertEqual(states.last, .live, "live again once the sync is answered: \(states)")
        XCTAssertEqual(try bo.other.messageBodies(roomID: room).filter { $0 == mine.body }.count, 1)
    }

    func testAnEventTimeBeyondTheYear9999IsClampedSoItsThreadFileReadsBack() throws {
        let server = try server
        let (_, ann, room) = try twoUsersInARoom("Far future", on: server)
        // An application service may set an event's time (`ts`): here the year 284,000.
        let userID = "@import_far:\(server.serverName)"
        try MatrixClient(homeserver: server.baseURL, accessToken: server.appServiceToken).registerAppServiceUser(localpart: "import_far")
        let service = MatrixClient(homeserver: server.baseURL, accessToken: server.appServiceToken, assertedUser: userID)
        _ = try service.join(room)
        try service.send(room: room, transactionID: "far", content: ["msgtype": "m.text", "body": "from the far future"],
                         timestamp: Date(timeIntervalSince1970: 8_900_000_000_000))
        let source = try open(room, as: ann, follows: false, usesCache: false)
        let far = try XCTUnwrap(try source.allComments().first { $0.body == "from the far future" })
        XCTAssertEqual(far.created, MatrixServerNumber.latestTime)
        XCTAssertEqual(Timestamp.parse(Timestamp.format(far.created)), far.created, "a thread file (an export) reads its time back")
    }
}

/// Which requests the scripted server answers 429 (each path once), and when each was asked again.
private final class RateLimitScript: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: Set<String> = []
    private var limitedAt: [String: Date] = [:]
    private var askedAgainAt: [String: Date] = [:]

    /// The next request whose path contains one of `paths` is answered 429.
    func limitOnce(_ paths: [String]) { lock.withLock { pending.formUnion(paths) } }

    /// Whether to answer a request for `path` with a 429 (noting the times either way).
    func limits(_ path: String) -> Bool {
        lock.withLock {
            for part in pending where path.contains(part) {
                pending.remove(part)
                limitedAt[part] = Date()
                return true
            }
            for part in limitedAt.keys where path.contains(part) && askedAgainAt[part] == nil { askedAgainAt[part] = Date() }
            return false
        }
    }

    /// Seconds from the 429 to the next request for the same path.
    func waited(_ part: String) -> Double? {
        lock.withLock { limitedAt[part].flatMap { at in askedAgainAt[part].map { $0.timeIntervalSince(at) } } }
    }
}
