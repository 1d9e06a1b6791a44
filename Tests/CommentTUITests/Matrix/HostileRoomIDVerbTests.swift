import Foundation
import XCTest
import SynapseFixture
@testable import CommentTUI

/// `new` and `post` print the id the homeserver gives (a room's, an event's): a hostile one
/// with bidi controls is printed escaped, never raw (issue 36).
final class HostileRoomIDVerbTests: XCTestCase {
    private var server: ScriptedHomeserver?
    private var config = ""
    private let hostileRoom = "!r\u{202E}moor\u{2066}:127.0.0.1"
    private let hostileEvent = "$e\u{202E}tneve\u{200F}"

    override func tearDown() {
        server?.stop()
        try? FileManager.default.removeItem(atPath: config)
        super.tearDown()
    }

    /// `text` as a JSON string literal (its bidi characters raw, as a hostile server sends them).
    private func json(_ text: String) -> String {
        String(data: try! JSONSerialization.data(withJSONObject: [text]), encoding: .utf8)!.dropFirst().dropLast().description
    }

    /// Logs in (a fresh config) to a scripted homeserver that answers with hostile ids, enough
    /// for `new` (a room made, not encrypted) and `post` (a room joined, opened from one sync).
    private func loggedIn() throws -> [String: String] {
        config = NSTemporaryDirectory() + "config-\(UUID().uuidString)"
        let room = json(hostileRoom), event = json(hostileEvent)
        let server = try ScriptedHomeserver { request in
            let path = request.path
            if path.hasSuffix("/versions") { return .versions }
            if path.hasSuffix("/login") { return .login() }
            if path.hasSuffix("/createRoom") { return .json("{\"room_id\":\(room)}") }
            if path.contains("/state/") { return .json("{\"errcode\":\"M_NOT_FOUND\",\"error\":\"none\"}", status: 404) }
            if path.contains("/send/") { return .json("{\"event_id\":\(event)}") }
            if path.hasSuffix("/sync") {
                return .json("""
                    {"next_batch":"s1","rooms":{"join":{"!room:127.0.0.1":{"state":{"events":[{"type":"m.room.create","state_key":"",\
                    "sender":"@mallory:127.0.0.1","content":{},"event_id":"$c","origin_server_ts":1}]},"timeline":{"events":[],"limited":false}}}}}
                    """)
            }
            if path.hasSuffix("/joined_rooms") { return .json("{\"joined_rooms\":[\"!room:127.0.0.1\"]}") }
            if path.hasSuffix("/joined_members") { return .json("{\"joined\":{\"@mallory:127.0.0.1\":{}}}") }
            if path.hasSuffix("/state") { return .json("[]") }
            if path.hasSuffix("/messages") { return .json("{\"chunk\":[]}") }
            return .json("{\"errcode\":\"M_UNRECOGNIZED\",\"error\":\"no\"}", status: 404)
        }
        self.server = server
        let environment = ["XDG_CONFIG_HOME": config, "HOME": config]
        let login = VerbRun(.login, ["--homeserver", server.baseURL.absoluteString, "--user", "mallory", "--password-stdin"],
                            input: "pw\n", environment: environment)
        XCTAssertEqual(login.status, 0, login.error)
        return environment
    }

    func testNewPrintsAHostileRoomIDEscaped() throws {
        let environment = try loggedIn()
        let run = VerbRun(.new, ["matrix:", "--title", "T"], environment: environment)
        XCTAssertEqual(run.status, 0, run.error)
        XCTAssertEqual(run.text, #"!r\u{202E}moor\u{2066}:127.0.0.1"# + "\n")
    }

    func testPostPrintsAHostileEventIDEscaped() throws {
        let environment = try loggedIn()
        let run = VerbRun(.post, ["matrix:!room:127.0.0.1", "--body", "hi"], environment: environment)
        XCTAssertEqual(run.status, 0, run.error)
        XCTAssertEqual(run.text, #"$e\u{202E}tneve\u{200F}"# + "\n")
    }
}
