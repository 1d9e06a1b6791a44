import XCTest
import ThreadModel
import SynapseFixture
@testable import CommentTUI

/// A post's unread divider is the post's own, against the real Synapse: the room's
/// `m.fully_read`, moved by another client past the post's new replies, marks none of them read.
final class MatrixPostDividerTests: SharedSynapseTestCase {
    func testTheRoomsFullyReadMarkerDoesNotMoveAPostsDivider() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Post divider", on: server)
        let root = try bo.other.sendText(roomID: room, body: "A post")
        func reply(_ body: String) throws -> String {
            try bo.other.send(roomID: room, content: [
                "msgtype": "m.text", "body": body,
                "m.relates_to": ["rel_type": "m.thread", "event_id": root, "is_falling_back": true, "m.in_reply_to": ["event_id": root]],
            ])
        }
        _ = try reply("read reply")
        let environment = temporaryDataEnvironment()
        let address = try XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)/\(root)"))
        let first = try MatrixThreadSource(client: ann.client, address: address, me: ann.account.userID, environment: environment)
        first.stop()
        // While the post is closed: a new reply, then the room read to its end in another client.
        _ = try reply("unread reply")
        let last = try bo.other.sendText(roomID: room, body: "the room goes on")
        try ann.other.call("POST", "/_matrix/client/v3/rooms/\(room)/read_markers", body: ["m.fully_read": last])

        let again = try MatrixThreadSource(client: ann.client, address: address, me: ann.account.userID, environment: environment)
        defer { again.stop() }
        XCTAssertTrue(again.isCatchingUp)
        let updates = try collectUpdates(from: again) { $0.contains { if case .caughtUp = $0 { true } else { false } } }
        XCTAssertEqual(updates.flatMap(\.appended).map(\.body), ["unread reply"])
        XCTAssertFalse(updates.contains { if case .readMarkerMovedElsewhere = $0 { true } else { false } },
                       "the room's marker says nothing of the post: \(updates)")
    }
}
