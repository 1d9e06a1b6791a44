import Foundation
import XCTest
import SynapseFixture
@testable import CommentTUI

/// A homeserver is hostile input: against a scripted one on 127.0.0.1, every answer is read
/// under a size limit and a deadline, and what it says a session is gets checked before use.
final class MatrixHostileServerTests: XCTestCase {
    private var servers: [ScriptedHomeserver] = []

    override func tearDown() {
        servers.forEach { $0.stop() }
        servers = []
        super.tearDown()
    }

    private func serve(accepts: Bool = true, _ script: @escaping @Sendable (ScriptedHomeserver.Request) -> ScriptedHomeserver.Answer) throws -> ScriptedHomeserver {
        let server = try ScriptedHomeserver(accepts: accepts, script: script)
        servers.append(server)
        return server
    }

    /// Runs `body`, returning the MatrixError it threw and the seconds it took.
    private func failure(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> (MatrixError?, TimeInterval) {
        let start = Date()
        do {
            try body()
            XCTFail("expected a failure", file: file, line: line)
        } catch {
            XCTAssertTrue(error is MatrixError, "\(error)", file: file, line: line)
            return (error as? MatrixError, Date().timeIntervalSince(start))
        }
        return (nil, Date().timeIntervalSince(start))
    }

    func testAnEndlessChunkedSyncStopsAtTheLargeLimit() throws {
        let server = try serve { _ in .endlessChunked }
        let client = MatrixClient(homeserver: server.baseURL, accessToken: "tok")
        let (error, seconds) = failure { _ = try client.sync(since: nil, filter: [:], wait: 0) }
        XCTAssertEqual(error?.message, "homeserver \(server.baseURL.absoluteString) sent more than 96 MiB in answer to sync; stopped reading it")
        // What the sockets' buffers hold (up to 36 MiB here) comes on top of what was read.
        XCTAssertLessThan(server.bytesSent, MatrixAnswerLimit.large + (48 << 20), "the client stopped reading at the limit")
        XCTAssertLessThan(seconds, 30)
    }

    func testAHugeAnnouncedLoginAnswerIsRefusedBeforeItsBody() throws {
        let server = try serve { _ in .announced(2 << 30) }
        let client = MatrixClient(homeserver: server.baseURL)
        let (error, _) = failure { _ = try client.login(user: "mallory", password: "pw") }
        XCTAssertEqual(error?.message, "homeserver \(server.baseURL.absoluteString) sent more than 64 KiB in answer to login; stopped reading it")
        XCTAssertLessThan(server.bytesSent, 64 << 20, "the client stopped reading long before 2 GiB")
    }

    func testAHundredMegabyteTokenIsNotRead() throws {
        let server = try serve { _ in .body(status: 200, headers: [], pieces: [.text("{\"access_token\":\""), .repeated(UInt8(ascii: "a"), 100 << 20), .text("\"}")],
                                           framing: .chunked, bytesPerSecond: nil) }
        let client = MatrixClient(homeserver: server.baseURL)
        let (error, _) = failure { _ = try client.login(user: "mallory", password: "pw") }
        XCTAssertEqual(error?.message, "homeserver \(server.baseURL.absoluteString) sent more than 64 KiB in answer to login; stopped reading it")
        XCTAssertLessThan(server.bytesSent, 64 << 20, "the client stopped reading long before 100 MiB")
    }

    func testADenseSyncIsRefusedBeforeItIsParsed() throws {
        // Two bytes a value: parsed whole, 90 MiB of these would take gigabytes.
        let server = try serve { _ in .json("{\"next_batch\":\"s\",\"x\":[0" + String(repeating: ",0", count: MatrixAnswerLimit.values) + "]}") }
        let client = MatrixClient(homeserver: server.baseURL, accessToken: "tok")
        let (error, _) = failure { _ = try client.sync(since: nil, filter: [:], wait: 0) }
        XCTAssertEqual(error?.message, """
            homeserver \(server.baseURL.absoluteString) sent more than \(MatrixAnswerLimit.values) JSON values in answer to sync; \
            not reading it
            """)
        // An answer of exactly the limit is read.
        let under = try serve { _ in .json("{\"next_batch\":\"s\",\"x\":[0" + String(repeating: ",0", count: MatrixAnswerLimit.values - 4) + "]}") }
        XCTAssertEqual(try MatrixClient(homeserver: under.baseURL, accessToken: "tok").sync(since: nil, filter: [:], wait: 0)["next_batch"], "s")
    }

    func testATrickledLoginAnswerFailsAtTheDeadline() throws {
        let server = try serve { _ in .trickle(String(repeating: " ", count: 8000) + "{}", bytesPerSecond: 1024) }
        let client = MatrixClient(homeserver: server.baseURL)
        let (error, seconds) = failure { _ = try client.login(user: "mallory", password: "pw", deadline: 3) }
        XCTAssertEqual(error?.message, "homeserver \(server.baseURL.absoluteString) did not answer login within 3 s")
        XCTAssertLessThan(seconds, 6, "the deadline covers the whole answer, not the gaps between its bytes")
    }

    func testAHangingServerEndsAtTheDeadlineOrAtOnceWhenCancelled() throws {
        let server = try serve { _ in .hang }
        let client = MatrixClient(homeserver: server.baseURL, accessToken: "tok")
        let (error, seconds) = failure { try client.request("GET", ["account", "whoami"], timeout: 2) }
        XCTAssertEqual(error?.message, "homeserver \(server.baseURL.absoluteString) did not answer account/whoami within 2 s")
        XCTAssertLessThan(seconds, 5)

        let (cancelled, latency) = self.cancelled(client) { _ = try client.sync(since: nil, filter: [:], wait: 30) }
        XCTAssertEqual(cancelled?.kind, .cancelled)
        print("cancel latency waiting for an answer: \(String(format: "%.3f", latency)) s")
        XCTAssertLessThan(latency, 1.5, "a stopping source ends a hanging request at once")
    }

    func testEndlessHeadersStopAtTheHeaderLimitWithTheirOwnMessage() throws {
        let server = try serve { _ in .endlessHeaders }
        let client = MatrixClient(homeserver: server.baseURL, accessToken: "tok")
        let (error, seconds) = failure { _ = try client.sync(since: nil, filter: [:], wait: 0) }
        XCTAssertEqual(error?.message, "homeserver \(server.baseURL.absoluteString) sent more than 64 KiB of headers in answer to sync; stopped reading it")
        XCTAssertLessThan(seconds, 10, "the headers' limit ends the exchange, not the sync's deadline")
    }

    func testOneHeaderLineLongerThanLibcurlTakesIsTooManyHeadersToo() throws {
        // Past 100 KiB in one line libcurl refuses it itself, before the collector counts it.
        let server = try serve { _ in .body(status: 200, headers: [("X-Filler", String(repeating: "a", count: 200_000))], pieces: [.text("{}")],
                                            framing: .contentLength, bytesPerSecond: nil) }
        let client = MatrixClient(homeserver: server.baseURL, accessToken: "tok")
        let (error, _) = failure { _ = try client.sync(since: nil, filter: [:], wait: 0) }
        XCTAssertEqual(error?.message, "homeserver \(server.baseURL.absoluteString) sent more than 64 KiB of headers in answer to sync; stopped reading it")
    }

    func testCancellingEndsARequestStillConnectingPromptly() throws {
        // Off this machine every address may answer (a proxy), so the connect phase is made here:
        // a listener whose queue is full drops the SYNs of the next connection.
        let server = try serve(accepts: false) { _ in .hang }
        XCTAssertTrue(server.fillQueue(), "the black hole's queue filled up")
        let client = MatrixClient(homeserver: server.baseURL, accessToken: "tok")
        let (error, latency) = cancelled(client) { _ = try client.sync(since: nil, filter: [:], wait: 30) }
        XCTAssertEqual(error?.kind, .cancelled)
        print("cancel latency while connecting: \(String(format: "%.3f", latency)) s")
        XCTAssertLessThan(latency, 1.5, "cancelling does not wait for libcurl's connect")
    }

    func testCancellingEndsARequestInTheTLSHandshakePromptly() throws {
        // The scripted server reads the ClientHello as the start of a request head and waits for
        // the rest: the handshake never ends.
        let server = try serve { _ in .hang }
        let client = MatrixClient(homeserver: URL(string: "https://127.0.0.1:\(server.port)")!, accessToken: "tok")
        let (error, latency) = cancelled(client) { _ = try client.sync(since: nil, filter: [:], wait: 30) }
        XCTAssertEqual(error?.kind, .cancelled)
        XCTAssertTrue(server.requests.isEmpty, "no HTTP request got through the handshake")
        print("cancel latency in the TLS handshake: \(String(format: "%.3f", latency)) s")
        XCTAssertLessThan(latency, 1.5, "cancelling does not wait for the handshake")
    }

    /// Runs `body`, cancelling `client` from another thread after a second (the request is then
    /// well into its phase); returns the error and the seconds from the cancellation to `body`'s end.
    private func cancelled(_ client: MatrixClient, _ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> (MatrixError?, TimeInterval) {
        let cancelledAt = CancelTime()
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) {
            cancelledAt.mark()
            client.cancelAll()
        }
        let (error, _) = failure(body, file: file, line: line)
        guard let at = cancelledAt.date else {
            XCTFail("the request ended before it was cancelled: \(error?.message ?? "")", file: file, line: line)
            return (error, 0)
        }
        return (error, Date().timeIntervalSince(at))
    }

    func testTokensWithLineBreaksOrBeyondTheBoundAreRefused() throws {
        for (answer, what) in [(ScriptedHomeserver.Answer.login(token: "abc\\r\\nX-Injected: 1"), "access token"),
                               (.login(tokenLength: 5000), "access token"),
                               (.login(deviceID: "D\\u0000"), "device id")] {
            let server = try serve { _ in answer }
            let (error, _) = failure { _ = try MatrixClient(homeserver: server.baseURL).login(user: "mallory", password: "pw") }
            XCTAssertTrue(error?.message.contains("returned an \(what)") == true || error?.message.contains("returned a \(what)") == true,
                          error?.message ?? "")
            XCTAssertTrue(error?.message.hasSuffix("not logged in") == true, error?.message ?? "")
        }
        for userID in ["mallory", "@:127.0.0.1", "@mal lory:127.0.0.1", "@mallory:exa mple.org", "@" + String(repeating: "m", count: 300) + ":x.org"] {
            let server = try serve { _ in .login(userID: userID) }
            let (error, _) = failure { _ = try MatrixClient(homeserver: server.baseURL).login(user: "mallory", password: "pw") }
            XCTAssertEqual(error?.message, "\(server.baseURL.absoluteString) returned a user id that is not a Matrix user id; not logged in")
        }
    }

    func testAStoredTokenThatWouldAddAHeaderLineIsNeverSent() throws {
        let server = try serve { _ in .json("{\"user_id\":\"@a:b\"}") }
        let (error, _) = failure { _ = try MatrixClient(homeserver: server.baseURL, accessToken: "tok\r\nX-Injected: 1").whoami() }
        XCTAssertEqual(error?.message, "the saved access token is not a token (printable ASCII, at most 4096 characters); log in again")
        XCTAssertTrue(server.requests.isEmpty, "nothing went out")
    }

    func testARedirectIsNotFollowedWithThePassword() throws {
        let elsewhere = try serve { _ in .login() }
        let server = try serve { _ in .redirect(elsewhere.baseURL.absoluteString + "/_matrix/client/v3/login") }
        let (error, _) = failure { _ = try MatrixClient(homeserver: server.baseURL).login(user: "mallory", password: "secret-pw") }
        XCTAssertEqual(error?.message, """
            homeserver \(server.baseURL.absoluteString) redirected to \(elsewhere.baseURL.absoluteString)/_matrix/client/v3/login (307); \
            not followed: give that address as the homeserver
            """)
        XCTAssertTrue(elsewhere.requests.isEmpty, "the password went nowhere else")
    }

    func testGrammarOfUserIDs() {
        let longest = "@" + String(repeating: "a", count: 255 - 7) + ":x.org"
        for good in ["@a:x.org", "@alice.127.0.0.1_34405:127.0.0.1:8448", "@a:[::1]:8008", "@=41:x.org", "@Ann/x+y:x.org",
                     "@a:[::1]", "@a:1.2.3.4:8448", longest] {
            XCTAssertTrue(MatrixGrammar.isUserID(good), good)
        }
        for bad in ["a:x.org", "@a", "@a:", "@a:x.org\n", "@a\u{7F}:x.org", "@é:x.org", "@a:x.org:99999x", "@a:[zz]",
                    "@a" + longest.dropFirst(), "@a:[::1", "@a:1.2.3.4:", "@a:x.org:123456"] {
            XCTAssertFalse(MatrixGrammar.isUserID(bad), bad)
        }
    }
}

/// When another thread cancelled, read from the test's thread.
private final class CancelTime: @unchecked Sendable {
    private let lock = NSLock()
    private var marked: Date?
    var date: Date? { lock.withLock { marked } }
    func mark() { lock.withLock { marked = Date() } }
}
