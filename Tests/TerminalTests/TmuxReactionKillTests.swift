import Foundation
import XCTest
import SynapseFixture
import CommentTUITestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A reaction made offline in the real client, which is then killed with SIGKILL before the
/// server is back: the next start sends it from the outbox, once.
final class TmuxReactionKillTests: OwnSynapseTestCase {
    func testAReactionMadeOfflineSurvivesAKillAndReachesTheRoomOnce() throws {
        let people = try TmuxRoomPeople(on: server)
        let (ann, boClient) = (people.ann, people.boClient)
        let roomID = try boClient.createRoom(name: "Offline reactions", preset: .publicChat)
        try boClient.sendText(roomID: roomID, body: "The post")
        _ = try server.client(for: ann).join(roomID)
        let comment = try boClient.sendText(roomID: roomID, body: "react while offline")

        let terminal = try people.terminalWithAnnLoggedIn()
        let pidFile = terminal.home.appendingPathComponent("client.pid").path
        // The client runs as the shell that wrote its pid: SIGKILL reaches it and nothing else.
        let open = "clear; sh -c 'echo $$ > \(pidFile); exec \(TmuxSession.clientPath) matrix:\(roomID)'; echo EXIT=$?"
        try terminal.run(open)
        try terminal.waitFor("the room to open live") { $0.last?.contains("live") == true }

        server.stop()
        try terminal.waitFor("the client to go offline", timeout: 40) { $0.last?.contains("offline") == true }
        Thread.sleep(forTimeInterval: 1)
        try terminal.keys("M-Up")
        Thread.sleep(forTimeInterval: 1)
        try terminal.react(choosing: "4")
        try terminal.waitFor("the reaction on its way") { $0.last?.contains("reacting 🎉") == true }
        Thread.sleep(forTimeInterval: 1)
        let pid = try XCTUnwrap(Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertEqual(kill(pid, SIGKILL), 0)
        // Gone once its shell has reaped it (the screen stays as the killed client left it).
        let deadline = Date().addingTimeInterval(10)
        while kill(pid, 0) == 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        XCTAssertNotEqual(kill(pid, 0), 0, "the client was killed")

        try server.start()
        try terminal.run("stty sane; " + open)
        let reacted = try terminal.waitFor("our reaction, sent from the outbox", timeout: 40) { $0.contains { $0.contains("🎉 1") } }
        let text = try XCTUnwrap(reacted.firstIndex { $0.contains("react while offline") })
        XCTAssertTrue(reacted[text + 1].contains("🎉 1"), reacted.joined(separator: "\n"))
        let reactions = try boClient.messages(roomID: roomID).filter {
            $0["type"] as? String == "m.reaction" && $0["sender"] as? String == ann.userID
        }
        XCTAssertEqual(reactions.count, 1, "sent once")
        let relation = (reactions.first?["content"] as? [String: Any])?["m.relates_to"] as? [String: Any]
        XCTAssertEqual(relation?["event_id"] as? String, comment)
        XCTAssertEqual(relation?["key"] as? String, "🎉")
        try terminal.keys("C-c")
        try terminal.waitFor("the client to exit") { $0.contains { $0.contains("EXIT=0") } }
    }
}
