import Foundation
import XCTest
import SynapseFixture
@testable import CommentTUI

/// Ctrl-C quits at once while a member storm comes in (issue 36: 500 joins sharing a
/// 35-character prefix froze the client 81 s, and Ctrl-C waited for them). A scripted
/// homeserver sends the storm: the cause is the client's own handling of member events, and
/// no test server could hold the rooms where it hurts.
final class TmuxMemberStormTests: XCTestCase {
    private var server: ScriptedHomeserver?

    override func tearDown() {
        server?.stop()
        server = nil
    }

    private static let room = "!storm:127.0.0.1"
    private static let me = "@ann:127.0.0.1"

    private static func event(_ type: String, _ id: String, sender: String = me, stateKey: String? = nil, content: String) -> String {
        let key = stateKey.map { ",\"state_key\":\"\($0)\"" } ?? ""
        return "{\"type\":\"\(type)\",\"event_id\":\"\(id)\",\"sender\":\"\(sender)\",\"origin_server_ts\":1700000000000\(key),\"content\":\(content)}"
    }

    private static func sync(_ next: String, timeline: [String]) -> ScriptedHomeserver.Answer {
        .json("{\"next_batch\":\"\(next)\",\"rooms\":{\"join\":{\"\(room)\":{\"timeline\":{\"events\":[\(timeline.joined(separator: ","))],\"limited\":false,\"prev_batch\":\"p\"},\"state\":{\"events\":[]}}}}}")
    }

    /// A room with a post, whose second live sync is `joins` people joining sharing a 35-character prefix.
    private func stormServer(joins: Int) throws -> ScriptedHomeserver {
        let create = Self.event("m.room.create", "$create", stateKey: "", content: "{\"creator\":\"\(Self.me)\",\"room_version\":\"10\"}")
        let member = Self.event("m.room.member", "$ann", stateKey: Self.me, content: "{\"membership\":\"join\",\"displayname\":\"Ann\"}")
        let name = Self.event("m.room.name", "$name", stateKey: "", content: "{\"name\":\"Storm\"}")
        let post = Self.event("m.room.message", "$post", content: "{\"msgtype\":\"m.text\",\"body\":\"The post\"}")
        let hello = Self.event("m.room.message", "$hello", content: "{\"msgtype\":\"m.text\",\"body\":\"before the storm\"}")
        let prefix = "a-prefix-thirty-five-characters-lon"
        let storm = (0..<joins).map { n in
            Self.event("m.room.member", "$join\(n)", sender: "@\(prefix)\(n):127.0.0.1", stateKey: "@\(prefix)\(n):127.0.0.1",
                       content: "{\"membership\":\"join\",\"displayname\":\"Joiner \(n)\"}")
        }
        let room = Self.room
        let server = try ScriptedHomeserver { request in
            switch request.path {
            case "/_matrix/client/versions": return .versions
            case "/_matrix/client/v3/joined_rooms": return .json("{\"joined_rooms\":[\"\(room)\"]}")
            case "/_matrix/client/v3/sync":
                if request.target.contains("since=s1") { return Self.sync("s2", timeline: []) }
                if request.target.contains("since=s2") { return Self.sync("s3", timeline: storm) }
                if request.target.contains("since=") { return .hang }
                return Self.sync("s1", timeline: [create, member, name, post, hello])
            case _ where request.path.hasSuffix("/messages"):
                return .json("{\"chunk\":[\(create),\(post)],\"start\":\"t0\"}")
            case _ where request.path.hasSuffix("/state/m.room.create/"):
                return .json("{\"creator\":\"\(Self.me)\"}")
            default:
                return .json("{\"errcode\":\"M_NOT_FOUND\",\"error\":\"no\"}", status: 404)
            }
        }
        self.server = server
        return server
    }

    func testCtrlCQuitsAtOnceWhileFiveHundredJoinsSharingAPrefixComeIn() throws {
        let server = try stormServer(joins: 500)
        let terminal = try TmuxSession(columns: 90, rows: 20)
        try terminal.keepSession(of: Self.me, on: server.baseURL)
        try terminal.run("\(TmuxSession.clientPath) --no-cache 'matrix:\(Self.room)'; echo EXIT=$?")
        try terminal.waitFor("the room to open", timeout: 20) { $0.contains { $0.contains("before the storm") } }
        try Waiting.until("the storm's sync to be asked for", timeout: 10) { server.requests.contains { $0.target.contains("since=s3") || $0.target.contains("since=s2") } }
        // The reader types while the storm is taken (a key tells the room they are typing, which
        // once waited for the whole storm), then quits, with realistic pauses.
        Thread.sleep(forTimeInterval: 1)
        try terminal.literal("h")
        Thread.sleep(forTimeInterval: 1)
        let pressed = Date()
        try terminal.keys("C-c")
        try terminal.waitFor("the client to quit", timeout: 30) { $0.contains { $0.contains("EXIT=") } }
        let took = Date().timeIntervalSince(pressed)
        // Generous for a loaded machine; the storm froze the old client for minutes.
        XCTAssertLessThan(took, 5, "Ctrl-C took \(took) s")
    }
}
