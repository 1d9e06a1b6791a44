import Foundation
import XCTest
import SynapseFixture
import CommentTUITestSupport

/// A post in a real terminal against a real Synapse: Enter on a post's root in the room's feed
/// opens the post (its root in the header, its replies the comments), Esc goes back.
final class TmuxPostTests: RunSynapseTestCase {
    func testEnterOnARootOpensItsPostAndEscGoesBackToTheRoom() throws {
        let people = try TmuxRoomPeople(on: server)
        let (roomID, root) = try people.tripRoomWithAPost("Ferry plans\nwhich one do we take", reply: "the early one", annJoins: true)
        try people.boClient.sendText(roomID: roomID, body: "not a post")

        let terminal = try people.terminalWithAnnLoggedIn()
        try terminal.run("clear; \(TmuxSession.clientPath) 'matrix:\(roomID)'; echo EXIT=$?")
        let room = try terminal.waitFor("the room to open live") { $0.last?.contains("live") == true && $0.contains { $0.contains("not a post") } }
        XCTAssertFalse(room.contains { $0.contains("the early one") }, "the reply is in its post: \(room)")

        // A person's pace: select the root, open it, look, go back.
        Thread.sleep(forTimeInterval: 1)
        try terminal.keys("M-Up")
        Thread.sleep(forTimeInterval: 1)
        try terminal.keys("M-Up")
        Thread.sleep(forTimeInterval: 1)
        try terminal.keys("Enter")
        let post = try terminal.waitFor("the post with its reply") { $0.contains { $0.contains("the early one") } }
        XCTAssertTrue(post.contains { $0.contains("Ferry plans") }, "the root is the post: \(post)")
        XCTAssertFalse(post.contains { $0.contains("not a post") }, "the room's comments are not the post's: \(post)")

        Thread.sleep(forTimeInterval: 1)
        try terminal.keys("Escape")
        let back = try terminal.waitFor("the room again") { $0.contains { $0.contains("not a post") } }
        XCTAssertFalse(back.contains { $0.contains("the early one") }, "\(back)")

        try terminal.keys("C-c")
        try terminal.waitFor("the client to exit") { $0.contains { $0.contains("EXIT=0") } }

        // Opened by its locator (from its offline copy), the post is a post too: Esc goes to its
        // room, from the room's copy.
        try terminal.run("clear; \(TmuxSession.clientPath) 'matrix:\(roomID)/\(root)'; echo EXIT2=$?")
        let direct = try terminal.waitFor("the post by its locator") { $0.contains { $0.contains("the early one") } }
        XCTAssertFalse(direct.contains { $0.contains("not a post") }, "\(direct)")
        Thread.sleep(forTimeInterval: 1)
        try terminal.keys("Escape")
        try terminal.waitFor("its room") { $0.contains { $0.contains("not a post") } && !$0.contains { $0.contains("the early one") } }
        try terminal.keys("C-c")
        try terminal.waitFor("the client to exit") { $0.contains { $0.contains("EXIT2=0") } }
    }
}
