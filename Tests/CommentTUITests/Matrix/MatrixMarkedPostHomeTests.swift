import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// A post started here (`new matrix:ROOM`) is listed in home under its room before anyone
/// replies (its root is marked as a post, and home sees it in the room's timeline), opens as a
/// post from there, and once replied to is `/threads`' row: listed once, with its count. Against
/// the real Synapse, through the whole client as `comment-tui` starts it.
final class MatrixMarkedPostHomeTests: SharedSynapseTestCase {
    private func threadReply(_ body: String, root: String) -> [String: Any] {
        ["msgtype": "m.text", "body": body,
         "m.relates_to": ["rel_type": "m.thread", "event_id": root, "is_falling_back": true, "m.in_reply_to": ["event_id": root]]]
    }

    func testAPostWithNoRepliesIsListedUnderItsRoomOpensAndIsListedOnceWhenReplied() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Marked posts", on: server)
        try bo.other.sendText(roomID: room, body: "the room's own message")
        let environment = try loggedInEnvironment(ann, on: server)
        let started = VerbRun(.new, ["matrix:\(room)", "--title", "Ferry plans", "--body", "Which one do we take?"],
                              environment: environment)
        XCTAssertEqual(started.status, 0, started.error)
        let root = try XCTUnwrap(MatrixRoomAddress(locator: started.text.trimmingCharacters(in: .newlines))?.postRoot)
        let rootEvent = try bo.client.event(room: room, id: root)
        XCTAssertEqual(rootEvent["content"]?[MatrixPostMark.field]?["title"]?.string, "Ferry plans", "the root is marked as a post")
        // Someone writes in the room after it: the post is not the room's newest message.
        try bo.other.sendText(roomID: room, body: "and a later message")

        let pilot = try startedClient(nil, environment: environment)
        let home = try XCTUnwrap(pilot.client.home)
        let roomKey = ThreadKey.room(account: ann.account.userID, roomID: room)
        let postKey = ThreadKey.post(account: ann.account.userID, roomID: room, root: root)
        pumpClient(pilot, "the post listed under its room") { home.summary(for: postKey) != nil && home.summary(for: roomKey) != nil }
        let order = home.summaries.map(\.key)
        XCTAssertEqual(order.firstIndex(of: postKey), order.firstIndex(of: roomKey).map { $0 + 1 }, "right under its room: \(order)")
        XCTAssertEqual(home.summary(for: postKey)?.name, "Ferry plans")
        XCTAssertEqual(home.summary(for: postKey)?.replies, 0)
        XCTAssertTrue(screenHas(pilot, "Ferry plans"), "\(pilot.lines)")

        // Chosen from home: the post opens, its root in the header, no comments yet.
        pilot.client.show(postKey)
        pumpClient(pilot, "the post opened") { pilot.client.place == .thread(postKey) }
        XCTAssertTrue(screenHas(pilot, "Ferry plans"), "\(pilot.lines)")
        XCTAssertEqual(pilot.commentCount, 0)
        XCTAssertFalse(screenHas(pilot, "and a later message"), "the room's messages are not the post's: \(pilot.lines)")

        // Bo replies in it as Element does: it comes into the open post, and home lists the
        // post once, with its count, as `/threads` has it now.
        try bo.other.send(roomID: room, content: threadReply("the early one", root: root))
        pumpClient(pilot, "the reply in the post") { screenHas(pilot, "the early one") }
        pilot.client.showHome()
        pumpClient(pilot, "the post's count") { home.summary(for: postKey)?.replies == 1 }
        XCTAssertEqual(home.summaries.filter { $0.key == postKey }.count, 1, "listed once")
        XCTAssertEqual(home.summaries.filter { $0.key.postRoom == roomKey }.count, 1, "\(home.summaries.map(\.name))")
    }
}
