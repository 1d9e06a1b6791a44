import XCTest
import ThreadModel
import SynapseFixture
@testable import CommentTUI

/// A permalink to an event (matrix.to, a `matrix:` URI's `e/`) may name any message: against the
/// real Synapse, one to an ordinary message opens the room, one to a post's root the post, one
/// to a reply in a post its post. `matrix:ROOM/$EVENT` names a post outright.
final class MatrixPermalinkTests: SharedSynapseTestCase {
    func testAPermalinkOpensThePostOnlyForARootOrAReplyInOne() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Permalinks", on: server)
        _ = try bo.other.sendText(roomID: room, body: "the room's first message (its header)")
        let plain = try bo.other.sendText(roomID: room, body: "an ordinary message")
        let root = try bo.other.sendText(roomID: room, body: "A post")
        let reply = try bo.other.send(roomID: room, content: [
            "msgtype": "m.text", "body": "a reply",
            "m.relates_to": ["rel_type": "m.thread", "event_id": root, "is_falling_back": true, "m.in_reply_to": ["event_id": root]],
        ])
        func opened(_ locator: String) throws -> MatrixThreadSource {
            let source = try MatrixThreadSource(client: ann.client, address: XCTUnwrap(MatrixRoomAddress(locator: locator)),
                                                me: ann.account.userID, environment: temporaryDataEnvironment(), follows: false)
            source.stop()
            return source
        }
        let link = { (event: String) in "https://matrix.to/#/\(room)/\(event)?via=\(server.serverName)" }
        XCTAssertNil(try opened(link(plain)).postRoot, "an ordinary message's link opens the room")
        XCTAssertTrue(try opened(link(plain)).opened.comments.contains { $0.body == "an ordinary message" })
        XCTAssertEqual(try opened(link(root)).postRoot, root)
        XCTAssertEqual(try opened(link(reply)).postRoot, root, "a reply's link opens its post")
        XCTAssertEqual(try opened("matrix:roomid/\(room.dropFirst())/e/\(reply.dropFirst())").postRoot, root)
        XCTAssertEqual(try opened("matrix:\(room)/\(root)").postRoot, root, "our locator names the post")
    }
}
