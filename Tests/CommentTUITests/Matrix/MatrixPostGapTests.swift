import XCTest
import ThreadModel
import SynapseFixture
@testable import CommentTUI

/// A limited sync in a post, against the real Synapse: while the reader was away the room got
/// many messages and the post a few replies. The post catches up with exactly its new replies
/// through `/relations` (no gap when none is missing), and pages back no further than its root.
final class MatrixPostGapTests: SharedSynapseTestCase {
    private func reply(by user: MatrixTestUser, in room: String, root: String, _ body: String) throws -> String {
        try user.other.send(roomID: room, content: [
            "msgtype": "m.text", "body": body,
            "m.relates_to": ["rel_type": "m.thread", "event_id": root, "is_falling_back": true, "m.in_reply_to": ["event_id": root]],
        ])
    }

    private func openPost(_ room: String, root: String, as user: MatrixTestUser, environment: [String: String]) throws -> MatrixThreadSource {
        try MatrixThreadSource(client: user.client, address: XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)/\(root)")),
                               me: user.account.userID, environment: environment, usesCache: true)
    }

    func testABusyRoomMakesNoGapInAPostWhoseNewRepliesAreAllFound() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Busy room, quiet post", on: server)
        let root = try bo.other.sendText(roomID: room, body: "The post\nabout it")
        _ = try reply(by: bo, in: room, root: root, "kept reply")
        let environment = temporaryDataEnvironment()
        let first = try openPost(room, root: root, as: ann, environment: environment)
        XCTAssertEqual(first.opened.comments.map(\.body), ["kept reply"])
        first.stop()
        // Away: two new replies far behind many room messages, more than a sync's window and a
        // /messages gap page (100) together, so the catch-up sync is limited well past them.
        _ = try reply(by: bo, in: room, root: root, "new reply 1")
        for number in 1...80 { _ = try bo.other.sendText(roomID: room, body: "room chatter \(number)") }
        _ = try reply(by: bo, in: room, root: root, "new reply 2")
        for number in 81...170 { _ = try bo.other.sendText(roomID: room, body: "room chatter \(number)") }

        let again = try openPost(room, root: root, as: ann, environment: environment)
        defer { again.stop() }
        XCTAssertTrue(again.isCatchingUp, "from the offline copy")
        let updates = try collectUpdates(from: again, timeout: 30) { $0.contains { if case .caughtUp = $0 { true } else { false } } }
        XCTAssertEqual(updates.flatMap(\.appended).map(\.body), ["new reply 1", "new reply 2"], "exactly the post's new replies")
        XCTAssertFalse(updates.contains { if case .gap = $0 { true } else { false } }, "nothing is missing: no gap")

        XCTAssertFalse(again.hasOlderComments, "the post's first reply is had: nothing older in the post")
    }
}
