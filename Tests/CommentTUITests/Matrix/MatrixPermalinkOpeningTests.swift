import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// A link to a message that is no post's root opens the room's feed with that message on screen
/// and selected, however far back it is (older pages load until it is there); a link to a reply
/// in a post opens the post at that reply. Against the real Synapse, through the whole client
/// as `comment-tui LOCATOR` starts it.
final class MatrixPermalinkOpeningTests: SharedSynapseTestCase {
    /// Whether the selected comment is `id` and its text on screen.
    private func shows(_ pilot: Pilot, selected id: String, text: String) -> Bool {
        guard let index = pilot.selectedCommentIndex, pilot.comment(at: index)?.id == id else { return false }
        return screenHas(pilot, text)
    }

    func testALinkToAMessage200BackOpensTheRoomWithItOnScreenAndSelected() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Linked message", on: server)
        // The room's first message is its post, in the header.
        try bo.other.sendText(roomID: room, body: "the room's first message")
        let linked = try bo.other.sendText(roomID: room, body: "the linked message")
        for n in 1...200 { try bo.other.sendText(roomID: room, body: "later message \(n)") }
        let environment = try loggedInEnvironment(ann, on: server)

        for locator in ["https://matrix.to/#/\(room)/\(linked)?via=\(server.serverName)", "matrix:\(room)/\(linked)"] {
            let pilot = try startedClient(locator, environment: environment)
            XCTAssertEqual(pilot.client.place, .thread(.room(account: ann.account.userID, roomID: room)), "the room opens, not a post")
            pumpClient(pilot, "\(locator): the linked message on screen and selected") {
                shows(pilot, selected: linked, text: "the linked message")
            }
            XCTAssertFalse(screenHas(pilot, "later message 200"), "not at the newest: \(pilot.lines)")
            // It stays there (nothing scrolls it away), and the room still follows what comes.
            pilot.idle(for: 1)
            XCTAssertTrue(shows(pilot, selected: linked, text: "the linked message"), "\(pilot.lines)")
            let live = try bo.other.sendText(roomID: room, body: "a live one")
            pumpClient(pilot, "the live message arriving") { pilot.index(ofComment: live) != nil }
            XCTAssertTrue(shows(pilot, selected: linked, text: "the linked message"), "\(pilot.lines)")
        }
    }

    func testALinkToAReplyInAPostOpensThePostAtThatReply() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Linked reply", on: server)
        let root = try bo.other.sendText(roomID: room, body: "A post")
        var replies: [String] = []
        for n in 1...3 {
            replies.append(try bo.other.send(roomID: room, content: [
                "msgtype": "m.text", "body": "reply \(n)",
                "m.relates_to": ["rel_type": "m.thread", "event_id": root, "is_falling_back": true, "m.in_reply_to": ["event_id": root]],
            ]))
        }
        let environment = try loggedInEnvironment(ann, on: server)
        let pilot = try startedClient("https://matrix.to/#/\(room)/\(replies[1])?via=\(server.serverName)", environment: environment)
        XCTAssertEqual(pilot.client.place, .thread(.post(account: ann.account.userID, roomID: room, root: root)))
        pumpClient(pilot, "the reply selected") { shows(pilot, selected: replies[1], text: "reply 2") }
    }
}
