import Foundation
import XCTest
import SynapseFixture
@testable import CommentTUI

/// Our receipts read back for a post, against the real Synapse, both ways a server is asked.
final class MatrixOwnReceiptsSynapseTests: SharedSynapseTestCase {
    func testSlidingSyncAndTheInitialSyncBothGiveOurThreadedReceipt() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Own receipts", on: server)
        let root = try bo.other.sendText(roomID: room, body: "A post")
        let reply = try bo.other.send(roomID: room, content: [
            "msgtype": "m.text", "body": "a reply", "m.relates_to": ["rel_type": "m.thread", "event_id": root],
        ])
        let later = try bo.other.sendText(roomID: room, body: "the room goes on")
        _ = try ann.other.call("POST", "/_matrix/client/v3/rooms/\(room)/receipt/m.read/\(reply)", body: ["thread_id": root])
        _ = try ann.other.call("POST", "/_matrix/client/v3/rooms/\(room)/receipt/m.read/\(later)", body: [:])
        // Bo's receipt in the post is his, not ours.
        _ = try bo.other.call("POST", "/_matrix/client/v3/rooms/\(room)/receipt/m.read/\(root)", body: ["thread_id": root])
        let me = ann.account.userID
        XCTAssertEqual(MatrixOwnReceipts.inPost(root, among: try ann.client.ownReceiptsBySlidingSync(room: room), me: me), [reply])
        XCTAssertEqual(MatrixOwnReceipts.inPost(root, among: try ann.client.ownReceiptsByInitialSync(room: room), me: me), [reply])
    }
}
