import Foundation
import XCTest
import SynapseFixture
@testable import CommentTUI

/// Who a login says it is comes from the homeserver, which may be hostile: the user id it
/// returns must be the one typed, and a session kept for that id on another homeserver is
/// neither replaced nor logged out (its token would go to the other server).
final class MatrixLoginIdentityTests: XCTestCase {
    private var servers: [ScriptedHomeserver] = []
    private var config = ""

    override func setUp() {
        super.setUp()
        config = NSTemporaryDirectory() + "identity-\(UUID().uuidString)"
    }

    override func tearDown() {
        servers.forEach { $0.stop() }
        servers = []
        try? FileManager.default.removeItem(atPath: config)
        super.tearDown()
    }

    private var accountsPath: String { config + "/comment-tui/accounts.json" }

    private var accounts: [MatrixAccounts.Account] {
        get throws { try MatrixAccounts(path: accountsPath).accounts }
    }

    /// A homeserver answering discovery, `login` with `answer`, and `logout`.
    private func homeserver(login answer: ScriptedHomeserver.Answer) throws -> ScriptedHomeserver {
        let server = try ScriptedHomeserver { request in
            switch request.path {
            case "/_matrix/client/versions": .versions
            case "/_matrix/client/v3/login": answer
            case "/_matrix/client/v3/logout": .json("{}")
            default: .json("{\"errcode\":\"M_UNRECOGNIZED\"}", status: 404)
            }
        }
        servers.append(server)
        return server
    }

    /// Keeps `account` in the accounts file, as an earlier login would have.
    private func keep(_ account: MatrixAccounts.Account) throws {
        var stored = try MatrixAccounts(path: accountsPath)
        stored.add(account)
        try stored.save()
    }

    private func login(_ homeserver: URL, user: String) -> VerbRun {
        VerbRun(.login, ["--homeserver", homeserver.absoluteString, "--user", user, "--password-stdin"],
                input: "pw\n", environment: ["XDG_CONFIG_HOME": config, "HOME": config])
    }

    /// Ann's real session on the victim's homeserver, kept, and a hostile homeserver whose login
    /// answers with her user ID.
    private func aKeptSessionAndAHostileServer() throws -> (victim: ScriptedHomeserver, real: MatrixAccounts.Account, hostile: ScriptedHomeserver) {
        let victim = try homeserver(login: .login())
        let real = MatrixAccounts.Account(userID: "@ann:victim.example", homeserver: victim.baseURL.absoluteString,
                                          accessToken: "real-token", deviceID: "REAL")
        try keep(real)
        let hostile = try homeserver(login: .login(userID: "@ann:victim.example", token: "hostile", deviceID: "H"))
        return (victim, real, hostile)
    }

    func testAUserIDOtherThanTheOneTypedIsRefused() throws {
        let (victim, real, hostile) = try aKeptSessionAndAHostileServer()
        for typed in ["mallory", "@mallory:victim.example", "@ann:elsewhere.example"] {
            let run = login(hostile.baseURL, user: typed)
            XCTAssertEqual(run.status, 1, typed)
            XCTAssertEqual(run.error, """
                comment-tui login: \(hostile.baseURL.absoluteString) logged in @ann:victim.example, not \(typed); not logged in\n
                """)
        }
        XCTAssertEqual(try accounts, [real], "the real session is kept as it was")
        XCTAssertTrue(victim.requests.isEmpty, "the real token went nowhere")
    }

    func testTheSameIDFromAnotherHomeserverNeitherReplacesNorLogsOutTheKeptSession() throws {
        let (victim, real, hostile) = try aKeptSessionAndAHostileServer()
        // A localpart alone, or the full id: the base URL does not say which server name it serves.
        for typed in ["ann", "ANN", "@ann:victim.example"] {
            let run = login(hostile.baseURL, user: typed)
            XCTAssertEqual(run.status, 1, typed)
            XCTAssertEqual(run.error, """
                comment-tui login: @ann:victim.example is logged in through \(victim.baseURL.absoluteString); \
                not replacing that session with one from \(hostile.baseURL.absoluteString) (log it out first with: \
                comment-tui logout --as @ann:victim.example); not logged in\n
                """)
        }
        XCTAssertEqual(try accounts, [real])
        XCTAssertTrue(victim.requests.isEmpty, "the real token went nowhere")
        XCTAssertFalse(hostile.requests.contains { $0.path.hasSuffix("/logout") })
    }

    func testALocalpartMatchesTheReturnedIDWithoutRegardToCase() throws {
        let server = try homeserver(login: .login(userID: "@ann:127.0.0.1", token: "t1", deviceID: "D1"))
        let run = login(server.baseURL, user: "Ann")
        XCTAssertEqual(run.status, 0, run.error)
        XCTAssertEqual(run.text, "logged in as @ann:127.0.0.1\n")
        XCTAssertEqual(try accounts.map(\.userID), ["@ann:127.0.0.1"])
    }

    func testTheSameDeviceAgainIsNotLoggedOut() throws {
        let server = try homeserver(login: .login(userID: "@ann:127.0.0.1", token: "new-token", deviceID: "SAME"))
        try keep(.init(userID: "@ann:127.0.0.1", homeserver: server.baseURL.absoluteString, accessToken: "old-token", deviceID: "SAME"))
        let run = login(server.baseURL, user: "ann")
        XCTAssertEqual(run.status, 0, run.error)
        XCTAssertEqual(run.text, "logged in as @ann:127.0.0.1\n")
        XCTAssertFalse(server.requests.contains { $0.path.hasSuffix("/logout") }, "logging the device out would end the new session too")
        XCTAssertEqual(try accounts.map(\.accessToken), ["new-token"])
    }

    func testAKeptTokenThatIsNotATokenIsNotSentToLogOut() throws {
        let server = try homeserver(login: .login(userID: "@ann:127.0.0.1", token: "new-token", deviceID: "NEW"))
        try keep(.init(userID: "@ann:127.0.0.1", homeserver: server.baseURL.absoluteString, accessToken: "old token\r\n", deviceID: "OLD"))
        let run = login(server.baseURL, user: "ann")
        XCTAssertEqual(run.status, 0, run.error)
        XCTAssertEqual(run.text, """
            logged in as @ann:127.0.0.1; the earlier session (device OLD) could not be logged out: its kept access token \
            is damaged; end it from another client\n
            """)
        XCTAssertFalse(server.requests.contains { $0.path.hasSuffix("/logout") })
    }
}
