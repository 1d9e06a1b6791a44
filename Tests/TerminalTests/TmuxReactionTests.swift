import Foundation
import XCTest
import SynapseFixture
import CommentTUITestSupport

/// Reactions in a real terminal against a real Synapse: another client's keys, hostile ones
/// among them, drawn under their comment without shifting a row; ours added with Alt-K.
final class TmuxReactionTests: RunSynapseTestCase {
    private func reaction(to eventID: String, _ key: String) -> [String: Any] {
        ["m.relates_to": ["rel_type": "m.annotation", "event_id": eventID, "key": key]]
    }

    func testReactionsShowUnderTheirCommentHostileKeysAsTextAndAltKAddsOurs() throws {
        let people = try TmuxRoomPeople(on: server)
        let (ann, boClient, suffix) = (people.ann, people.boClient, people.suffix)
        let roomID = try boClient.createRoom(name: "Reacting", preset: .publicChat)
        try boClient.sendText(roomID: roomID, body: "The post")
        _ = try server.client(for: ann).join(roomID)
        let comment = try boClient.sendText(roomID: roomID, body: "react to this")
        try boClient.sendText(roomID: roomID, body: "the next one")
        // A key that would clear the screen and retitle the terminal if it reached it as bytes,
        // and a family (ZWJ) that terminals draw at different widths.
        try boClient.send(roomID: roomID, content: reaction(to: comment, "\u{1B}[2J\u{1B}]0;owned\u{7}"), type: "m.reaction")
        try boClient.send(roomID: roomID, content: reaction(to: comment, "👨‍👩‍👧"), type: "m.reaction")

        let terminal = try people.terminalWithAnnLoggedIn()
        try terminal.run("clear; \(TmuxSession.clientPath) 'matrix:\(roomID)'; echo EXIT=$?")
        try terminal.waitFor("the room to open live") { $0.last?.contains("live") == true }
        let opened = try terminal.waitFor("the reactions under the comment") { $0.contains { $0.contains("1  ") && $0.contains("[2J") } }
        let text = try XCTUnwrap(opened.firstIndex { $0.contains("react to this") })
        XCTAssertTrue(opened[text + 1].hasPrefix("   ") && opened[text + 1].contains("[2J"), "under its comment: \(opened)")
        XCTAssertTrue(opened[text + 3].contains("Bo @bo-\(suffix)"), "the next comment's header in its column: \(opened)")
        XCTAssertTrue(opened[0].contains("Reacting"), "the screen was not cleared: \(opened)")

        // A person's pace: select the comment above the newest, open the picker, pick 🎉.
        Thread.sleep(forTimeInterval: 1)
        try terminal.keys("M-Up")
        Thread.sleep(forTimeInterval: 1)
        try terminal.keys("M-Up")
        Thread.sleep(forTimeInterval: 1)
        try terminal.react(choosing: "4")
        let reacted = try terminal.waitFor("our reaction under the comment") { $0.contains { $0.contains("🎉 1") } }
        XCTAssertTrue(reacted[text + 1].contains("🎉 1"), "\(reacted)")
        let events = try boClient.messages(roomID: roomID)
        XCTAssertTrue(events.contains { $0["type"] as? String == "m.reaction" && $0["sender"] as? String == ann.userID }, "Bo's client sees it")

        try terminal.keys("C-c")
        try terminal.waitFor("the client to exit") { $0.contains { $0.contains("EXIT=0") } }
    }
}
