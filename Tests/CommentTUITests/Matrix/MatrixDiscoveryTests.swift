import Foundation
import XCTest
import SynapseFixture
@testable import CommentTUI

/// What login's discovery takes from what was typed and from a site's `.well-known`, against
/// scripted servers: odd but valid addresses work, and addresses that would leak or downgrade
/// are refused with a message.
final class MatrixDiscoveryTests: XCTestCase {
    private var servers: [ScriptedHomeserver] = []

    override func tearDown() {
        servers.forEach { $0.stop() }
        servers = []
        super.tearDown()
    }

    private func serve(_ script: @escaping @Sendable (ScriptedHomeserver.Request) -> ScriptedHomeserver.Answer) throws -> ScriptedHomeserver {
        let server = try ScriptedHomeserver(script: script)
        servers.append(server)
        return server
    }

    /// A homeserver under the path `prefix` (percent-encoded, as sent).
    private func homeserver(under prefix: String) throws -> ScriptedHomeserver {
        try serve { request in
            request.path == prefix + "/_matrix/client/versions" ? .versions : .json("{\"errcode\":\"M_UNRECOGNIZED\"}", status: 404)
        }
    }

    func testABaseURLWithAnEscapedSpaceInItsPathWorks() throws {
        let server = try homeserver(under: "/a%20b")
        let typed = server.baseURL.absoluteString + "/a%20b"
        XCTAssertEqual(try MatrixDiscovery.homeserver(typed: typed).absoluteString, typed)

        let site = try serve { request in
            request.path == "/.well-known/matrix/client"
                ? .json("{\"m.homeserver\":{\"base_url\":\"\(typed)\"}}") : .json("{}", status: 404)
        }
        XCTAssertEqual(try MatrixDiscovery.homeserver(typed: site.baseURL.absoluteString).absoluteString, typed)
    }

    func testCredentialsInTheAddressOrAnEndlessAddressAreRefused() {
        for typed in ["https://ann:secret@matrix.example.org", "ann@matrix.example.org", "https://ann@example.org/x"] {
            XCTAssertThrowsError(try MatrixDiscovery.url(typed), typed) { error in
                XCTAssertEqual((error as? MatrixError)?.message,
                               "a homeserver address carries no user name or password; give the user with --user", typed)
            }
        }
        let long = "https://example.org/" + String(repeating: "a", count: 2048)
        XCTAssertThrowsError(try MatrixDiscovery.url(long)) { error in
            XCTAssertEqual((error as? MatrixError)?.message, "not a homeserver URL: longer than 2048 characters")
        }
        XCTAssertNoThrow(try MatrixDiscovery.url("https://example.org/" + String(repeating: "a", count: 2000)))
    }

    func testAnHTTPSSiteMayNameAnHTTPHomeserverOnlyOnThisMachine() throws {
        let site = try XCTUnwrap(URL(string: "https://example.org/.well-known/matrix/client"))
        for loopback in ["http://127.0.0.1:8008", "http://127.3.4.5", "http://[::1]:8008", "http://localhost:8008", "https://matrix.example.org"] {
            XCTAssertNoThrow(try MatrixDiscovery.checkScheme(of: XCTUnwrap(URL(string: loopback)), namedBy: site), loopback)
        }
        for remote in ["http://matrix.example.org", "http://10.0.0.1:8008", "http://127.example.org", "http://localhost.example.org"] {
            XCTAssertThrowsError(try MatrixDiscovery.checkScheme(of: XCTUnwrap(URL(string: remote)), namedBy: site), remote) { error in
                XCTAssertEqual((error as? MatrixError)?.message, """
                    https://example.org/.well-known/matrix/client names \(remote), which is not https: the password \
                    would cross the network unencrypted; not logging in
                    """)
            }
        }
        // An http site (typed as such) may name an http homeserver.
        XCTAssertNoThrow(try MatrixDiscovery.checkScheme(of: XCTUnwrap(URL(string: "http://matrix.example.org")),
                                                         namedBy: XCTUnwrap(URL(string: "http://example.org/.well-known/matrix/client"))))
    }

    func testAWellKnownRedirectIsFollowedAFewTimes() throws {
        let server = try homeserver(under: "")
        let base = server.baseURL.absoluteString
        let target = try serve { request in
            request.path == "/.well-known/matrix/client" ? .json("{\"m.homeserver\":{\"base_url\":\"\(base)\"}}") : .json("{}", status: 404)
        }
        var chain = target
        for _ in 0..<3 {
            let next = chain.baseURL.absoluteString + "/.well-known/matrix/client"
            chain = try serve { request in request.path == "/.well-known/matrix/client" ? .redirect(next, status: 301) : .json("{}", status: 404) }
        }
        XCTAssertEqual(try MatrixDiscovery.homeserver(typed: chain.baseURL.absoluteString).absoluteString, base, "three redirects are followed")

        let next = chain.baseURL.absoluteString + "/.well-known/matrix/client"
        let fourth = try serve { request in request.path == "/.well-known/matrix/client" ? .redirect(next, status: 302) : .json("{}", status: 404) }
        XCTAssertThrowsError(try MatrixDiscovery.homeserver(typed: fourth.baseURL.absoluteString)) { error in
            XCTAssertEqual((error as? MatrixError)?.message, """
                \(fourth.baseURL.absoluteString)/.well-known/matrix/client redirected more than 3 times; \
                give the homeserver's address with --homeserver
                """)
        }
    }

    func testABrokenWellKnownFailsUnlessTheAddressIsAHomeserverItself() throws {
        let site = try serve { request in
            request.path == "/.well-known/matrix/client" ? .json("<html>", status: 200) : .json("{}", status: 404)
        }
        XCTAssertThrowsError(try MatrixDiscovery.homeserver(typed: site.baseURL.absoluteString)) { error in
            XCTAssertEqual((error as? MatrixError)?.message, """
                \(site.baseURL.absoluteString)/.well-known/matrix/client is not JSON, and \(site.baseURL.absoluteString) \
                is not a Matrix homeserver itself; give the homeserver's address with --homeserver
                """)
        }
        let failing = try serve { request in
            request.path == "/.well-known/matrix/client" ? .json("{}", status: 500) : .json("{}", status: 404)
        }
        XCTAssertThrowsError(try MatrixDiscovery.homeserver(typed: failing.baseURL.absoluteString)) { error in
            XCTAssertEqual((error as? MatrixError)?.message, """
                \(failing.baseURL.absoluteString)/.well-known/matrix/client answered 500, and \(failing.baseURL.absoluteString) \
                is not a Matrix homeserver itself; give the homeserver's address with --homeserver
                """)
        }
        // A homeserver that answers its own .well-known with something odd is still found.
        let odd = try serve { request in
            switch request.path {
            case "/.well-known/matrix/client": .json("{}", status: 500)
            case "/_matrix/client/versions": .versions
            default: .json("{}", status: 404)
            }
        }
        XCTAssertEqual(try MatrixDiscovery.homeserver(typed: odd.baseURL.absoluteString), odd.baseURL)
    }
}
