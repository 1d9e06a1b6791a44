import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// A post (a Matrix thread) in an encrypted room, against Synapse with nio: its root and replies
/// open decrypted, and our reply in it goes encrypted, in the thread (its relation in the clear).
final class MatrixEncryptedPostTests: SharedSynapseTestCase {
    func testAnEncryptedPostOpensDecryptedAndOurReplyGoesEncryptedInItsThread() throws {
        let room = try encryptedRoom()
        let keys = try keys(of: room)
        let root = try XCTUnwrap(nioSends(["The plan for Friday"], in: room).first)
        try room.nio.run([.sync, .sendEncryptedContent(room: room.room, content: [
            "msgtype": "m.text", "body": "the detail",
            "m.relates_to": ["rel_type": "m.thread", "event_id": root, "is_falling_back": true, "m.in_reply_to": ["event_id": root]],
        ])])

        let sync = MatrixAccountSync(client: room.ann.client)
        sync.roomKeys = keys
        // The account's sync takes the room keys nio sent to Ann's device.
        _ = keys.take(try room.ann.client.sync(since: nil, filter: [:], wait: 0))
        let post = try MatrixThreadSource(client: room.ann.client, address: XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room.room)/\(root)")),
                                          me: room.ann.account.userID, environment: temporaryDataEnvironment(), usesCache: false,
                                          accountSync: sync)
        defer { post.stop(); sync.stop() }
        XCTAssertEqual(post.thread.title, "The plan for Friday", "the root, decrypted, is the post")
        XCTAssertEqual(opened(post).map(\.body), ["the detail"])
        XCTAssertNil(post.sendingHeld)

        let reply = comment(by: room.ann, "count me in")
        XCTAssertEqual(post.send(reply), .pending)
        try collectUpdates(from: post, timeout: 30) { $0.contains { if case .sendConfirmed(reply.id) = $0 { true } else { false } } }
        let sent = try XCTUnwrap(room.bo.other.messages(roomID: room.room).first { $0["sender"] as? String == room.ann.account.userID
            && $0["type"] as? String == "m.room.encrypted" })
        let relation = (sent["content"] as? [String: Any])?["m.relates_to"] as? [String: Any]
        XCTAssertEqual(relation?["rel_type"] as? String, "m.thread", "in the thread, in the clear: \(sent)")
        XCTAssertEqual(relation?["event_id"] as? String, root)
        let read = try XCTUnwrap(room.nio.run([.messages(room: room.room, limit: 10)]).first?["messages"] as? [[String: Any]])
        XCTAssertEqual(read.compactMap { $0["decrypted"] as? Bool == true ? $0["body"] as? String : nil }.last, "count me in")
    }
}
