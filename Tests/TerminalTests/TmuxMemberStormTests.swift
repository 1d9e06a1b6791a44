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

    private static let room = ScriptedRoom(id: "!storm:127.0.0.1")

    /// A room with a post, whose second live sync is `joins` people joining sharing a 35-character prefix.
    private func stormServer(joins: Int) throws -> ScriptedHomeserver {
        let room = Self.room
        let hello = room.event("m.room.message", "$hello", content: "{\"msgtype\":\"m.text\",\"body\":\"before the storm\"}")
        let prefix = "a-prefix-thirty-five-characters-lon"
        let storm = (0..<joins).map { n in room.join("@\(prefix)\(n):127.0.0.1", name: "Joiner \(n)", eventID: "$join\(n)") }
        let opening = room.opening(name: "Storm") + [hello]
        let server = try room.server { request in
            if request.target.contains("since=s1") { return room.sync("s2", timeline: []) }
            if request.target.contains("since=s2") { return room.sync("s3", timeline: storm) }
            if request.target.contains("since=") { return .hang }
            return room.sync("s1", timeline: opening)
        }
        self.server = server
        return server
    }

    func testCtrlCQuitsAtOnceWhileFiveHundredJoinsSharingAPrefixComeIn() throws {
        let server = try stormServer(joins: 500)
        let terminal = try TmuxSession(columns: 90, rows: 20)
        try terminal.keepSession(of: ScriptedRoom.me, on: server.baseURL)
        try terminal.run("\(TmuxSession.clientPath) --no-cache 'matrix:\(Self.room.id)'; echo EXIT=$?")
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
