import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI

/// Numbers from a homeserver, or from a room member through one, are clamped before use: a
/// 429 asking for 10^13 ms trapped the client (SIGILL converting the wait's end to nanoseconds).
final class MatrixServerNumberTests: SharedSynapseTestCase {
    private var servers: [ScriptedHomeserver] = []

    override func tearDown() {
        servers.forEach { $0.stop() }
        servers = []
        super.tearDown()
    }

    /// A 429 with `retry_after_ms` written as given and, when given, a `Retry-After` header.
    private static func limited(milliseconds: String, header: String? = nil) -> ScriptedHomeserver.Answer {
        .body(status: 429, headers: [("Content-Type", "application/json")] + (header.map { [("Retry-After", $0)] } ?? []),
              pieces: [.text(#"{"errcode":"M_LIMIT_EXCEEDED","error":"Too Many Requests","retry_after_ms":\#(milliseconds)}"#)],
              framing: .contentLength, bytesPerSecond: nil)
    }

    func testTheWaitA429AsksForIsClampedWhateverItSays() throws {
        let longest = MatrixServerNumber.longestRetryWait, shortest = MatrixServerNumber.shortestRetryWait
        let cases: [(milliseconds: String, header: String?, wait: Double?)] = [
            ("1500", nil, 1.5),
            ("10000000000000", nil, longest),            // the wait that trapped: 10^13 ms
            ("9007199254740991", nil, longest),
            ("1e300", nil, longest),
            ("1e400", nil, nil),                         // past Double: no number, so the usual backoff
            ("-5000", nil, shortest),
            ("0", nil, shortest),
            ("\"NaN\"", nil, nil),
            ("1500", "2", 2),                            // the header, when there is one
            ("1500", "99999999999999999999999999", longest),
            ("1500", "-1", shortest),
            ("1500", "Wed, 21 Oct 2015 07:28:00 GMT", 1.5), // a date is not read: the body's wait
        ]
        for (milliseconds, header, wait) in cases {
            let server = try ScriptedHomeserver { _ in Self.limited(milliseconds: milliseconds, header: header) }
            servers.append(server)
            let client = MatrixClient(homeserver: server.baseURL, accessToken: "tok")
            XCTAssertThrowsError(try client.sync(since: nil, filter: [:], wait: 0)) { error in
                XCTAssertEqual((error as? MatrixError)?.retryAfter, wait, "retry_after_ms \(milliseconds), Retry-After \(header ?? "none")")
            }
        }
    }

    func testASyncAndASendAskedToWaitForAgesWaitTheLongestRetryAndGoOn() throws {
        let (bo, ann, room) = try twoUsersInARoom("Rate limited", on: server)
        let upstream = try server.baseURL
        let script = RateLimitScript()
        let front = try ScriptedHomeserver { request in
            if script.limits(request.path) { return Self.limited(milliseconds: "10000000000000") }
            return .forwarded(request, to: upstream)
        }
        servers.append(front)
        var throughFront = ann
        throughFront.client = MatrixClient(homeserver: front.baseURL, accessToken: ann.account.accessToken)
        let source = try open(room, as: throughFront)
        defer { source.stop() }
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
        let updates = try collectUpdates(from: source, timeout: MatrixServerNumber.longestRetryWait + 30) { updates in
            updates.flatMap(\.appended).contains { $0.body == "while the client waits" }
                && updates.contains { if case .sendConfirmed(mine.id) = $0 { true } else { false } }
        }
        XCTAssertFalse(updates.contains { if case .sendFailed = $0 { true } else { false } })
        for path in ["/sync", "/send/"] {
            let waited = try XCTUnwrap(script.waited(path), "\(path) was answered 429 and asked again")
            print("\(path) asked again \(String(format: "%.1f", waited)) s after a 429 asking for 10^13 ms")
            XCTAssertGreaterThan(waited, MatrixServerNumber.longestRetryWait - 1, "\(path) waited as long as it may")
            XCTAssertLessThan(waited, MatrixServerNumber.longestRetryWait + 15, "\(path) did not wait for the server's age")
        }
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

    func testTimesOutsideTheFileFormatsRangeAreClamped() {
        XCTAssertEqual(MatrixServerNumber.time(milliseconds: .number(1_600_000_000_000)), Date(timeIntervalSince1970: 1_600_000_000))
        XCTAssertEqual(MatrixServerNumber.time(milliseconds: .number(-9e15)), MatrixServerNumber.earliestTime)
        XCTAssertEqual(MatrixServerNumber.time(milliseconds: .number(1e308)), MatrixServerNumber.latestTime)
        XCTAssertEqual(MatrixServerNumber.time(milliseconds: .number(.nan)), MatrixServerNumber.earliestTime)
        XCTAssertEqual(MatrixServerNumber.time(milliseconds: "12"), MatrixServerNumber.earliestTime)
        XCTAssertEqual(MatrixServerNumber.time(milliseconds: nil), MatrixServerNumber.earliestTime)
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
