import Foundation
import XCTest
import SynapseFixture
@testable import CommentTUI

/// Login finds the homeserver as people type it (a server name with `.well-known`, a URL
/// without a scheme), fails in seconds on a black hole or the wrong scheme, names a certificate
/// problem, and logs out the session it replaces.
final class MatrixLoginDiscoveryTests: SharedSynapseTestCase {
    private var scripted: [ScriptedHomeserver] = []
    private var config = ""

    override func setUp() {
        super.setUp()
        config = NSTemporaryDirectory() + "config-\(UUID().uuidString)"
    }

    override func tearDown() {
        scripted.forEach { $0.stop() }
        scripted = []
        try? FileManager.default.removeItem(atPath: config)
        super.tearDown()
    }

    private func serve(accepts: Bool = true, _ script: @escaping @Sendable (ScriptedHomeserver.Request) -> ScriptedHomeserver.Answer) throws -> ScriptedHomeserver {
        let server = try ScriptedHomeserver(accepts: accepts, script: script)
        scripted.append(server)
        return server
    }

    /// `comment-tui login --homeserver <homeserver> --user <user> --password-stdin`, in-process,
    /// with the seconds it took.
    private func login(_ homeserver: String?, user: String, password: String = "pw") -> (status: Int32, output: String, errors: String, seconds: Double) {
        let start = Date()
        let run = VerbRun(.login, (homeserver.map { ["--homeserver", $0] } ?? []) + ["--user", user, "--password-stdin"],
                          input: password + "\n", environment: ["XDG_CONFIG_HOME": config, "HOME": config])
        return (run.status, run.text, run.error, Date().timeIntervalSince(start))
    }

    private var accounts: [MatrixAccounts.Account] {
        get throws { try MatrixAccounts(path: config + "/comment-tui/accounts.json").accounts }
    }

    func testAServerNameLeadsThroughWellKnownToTheHomeserver() throws {
        let synapse = try server
        let ann = try registerUser("ann", on: synapse)
        let base = synapse.baseURL.absoluteString
        let site = try serve { request in
            request.path == "/.well-known/matrix/client"
                ? .json("{\"m.homeserver\":{\"base_url\":\"\(base)/\"}}") : .json("{\"errcode\":\"M_UNRECOGNIZED\"}", status: 404)
        }
        let result = login(site.baseURL.absoluteString, user: ann.localpart, password: ann.account.password)
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertEqual(result.output, "logged in as \(ann.account.userID)\n")
        XCTAssertEqual(try accounts.map(\.homeserver), [base], "the session is kept with the homeserver the site named")
        XCTAssertFalse(site.requests.contains { $0.path.contains("login") }, "the password went to the homeserver only")
    }

    func testABlackHoleFailsInSeconds() throws {
        let hole = try serve(accepts: false) { _ in .hang }
        let result = login(hole.baseURL.absoluteString, user: "ann")
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.errors, "comment-tui login: homeserver \(hole.baseURL.absoluteString) did not answer /.well-known/matrix/client within 6 s\n")
        XCTAssertLessThan(result.seconds, 15, "seconds, not a minute")
    }

    func testTheWrongSchemeSaysWhichToUse() throws {
        let synapse = try server
        let port = try XCTUnwrap(synapse.port)
        let https = login("https://127.0.0.1:\(port)", user: "ann")
        XCTAssertEqual(https.status, 1)
        // Synapse waits for a request line that a TLS hello never ends: the step's deadline passes.
        XCTAssertEqual(https.errors, """
            comment-tui login: homeserver https://127.0.0.1:\(port) did not answer /.well-known/matrix/client within 6 s; \
            it speaks http: log in with --homeserver http://127.0.0.1:\(port)\n
            """)
        XCTAssertLessThan(https.seconds, 15)

        let tls = try SelfSignedTLSServer()
        defer { tls.stop() }
        let http = login("http://127.0.0.1:\(tls.port)", user: "ann")
        XCTAssertEqual(http.status, 1)
        XCTAssertEqual(http.errors, """
            comment-tui login: homeserver http://127.0.0.1:\(tls.port) closed the connection without an answer; \
            it speaks https: log in with --homeserver https://127.0.0.1:\(tls.port)\n
            """)
        XCTAssertLessThan(http.seconds, 10)
    }

    func testACertificateProblemIsNamedAndASchemelessAddressMeansHTTPS() throws {
        let tls = try SelfSignedTLSServer()
        defer { tls.stop() }
        for typed in ["https://127.0.0.1:\(tls.port)", "127.0.0.1:\(tls.port)"] {
            let result = login(typed, user: "ann")
            XCTAssertEqual(result.status, 1)
            XCTAssertEqual(result.errors, """
                comment-tui login: the TLS certificate of https://127.0.0.1:\(tls.port) is not trusted \
                (SSL certificate problem: self-signed certificate); not connecting\n
                """)
            XCTAssertLessThan(result.seconds, 10)
        }
        XCTAssertEqual(try MatrixDiscovery.url("example.org").absoluteString, "https://example.org")
        XCTAssertEqual(try MatrixDiscovery.url("matrix.example.org:8448").absoluteString, "https://matrix.example.org:8448")
        // Without --homeserver, a full user id's server name is where discovery starts.
        XCTAssertEqual(LoginCommand.serverName(of: "@ann:example.org"), "example.org")
        XCTAssertNil(LoginCommand.serverName(of: "ann"))
        XCTAssertEqual(VerbRun(.login, ["--user", "ann", "--password-stdin"], input: "pw\n").status, 2, "a bare name needs --homeserver")
    }

    func testLoggingInAgainLogsTheEarlierSessionOut() throws {
        let synapse = try server
        let ann = try registerUser("ann", on: synapse)
        let first = login(synapse.baseURL.absoluteString, user: ann.localpart, password: ann.account.password)
        XCTAssertEqual(first.status, 0, first.errors)
        let earlier = try XCTUnwrap(accounts.first)
        let second = login(synapse.baseURL.absoluteString, user: ann.localpart, password: ann.account.password)
        XCTAssertEqual(second.status, 0, second.errors)
        XCTAssertEqual(second.output, "logged in as \(ann.account.userID); the earlier session (device \(earlier.deviceID)) was logged out\n")
        let now = try XCTUnwrap(accounts.first)
        XCTAssertEqual(try accounts.count, 1)
        XCTAssertNotEqual(now.accessToken, earlier.accessToken)
        XCTAssertThrowsError(try MatrixClient(homeserver: synapse.baseURL, accessToken: earlier.accessToken).whoami()) { error in
            XCTAssertEqual((error as? MatrixError)?.errcode, "M_UNKNOWN_TOKEN", "the old device's token stopped working")
        }
        XCTAssertEqual(try MatrixClient(homeserver: synapse.baseURL, accessToken: now.accessToken).whoami(), ann.account.userID)
    }
}
