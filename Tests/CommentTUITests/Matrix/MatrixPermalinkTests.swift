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

    /// A reaction or an edit stands for the message it changes; a membership change or a state
    /// event is never a comment: the room opens at its newest (nothing looked for), saying why.
    func testAPermalinkToWhatIsNoCommentOpensAtTheMessageItChangesOrAtTheNewest() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Permalinks to events", on: server)
        _ = try bo.other.sendText(roomID: room, body: "the room's first message (its header)")
        let plain = try bo.other.sendText(roomID: room, body: "an ordinary message")
        let root = try bo.other.sendText(roomID: room, body: "A post")
        let reply = try bo.other.send(roomID: room, content: [
            "msgtype": "m.text", "body": "a reply",
            "m.relates_to": ["rel_type": "m.thread", "event_id": root, "is_falling_back": true, "m.in_reply_to": ["event_id": root]],
        ])
        let reaction = try ann.other.send(roomID: room, content: ["m.relates_to": ["rel_type": "m.annotation", "event_id": plain, "key": "👍"]],
                                          type: "m.reaction")
        let edit = try bo.other.send(roomID: room, content: [
            "msgtype": "m.text", "body": "* a reply, fixed", "m.new_content": ["msgtype": "m.text", "body": "a reply, fixed"],
            "m.relates_to": ["rel_type": "m.replace", "event_id": reply],
        ])
        let membership = try bo.other.sendState(roomID: room, type: "m.room.member", stateKey: bo.account.userID,
                                                content: ["membership": "join", "displayname": "Bo B"])
        let topic = try bo.other.sendState(roomID: room, type: "m.room.topic", content: ["topic": "ferries"])
        func resolved(_ event: String) throws -> MatrixRoomAddress {
            try MatrixThreadSource.permalinkResolved(XCTUnwrap(MatrixRoomAddress(locator: "https://matrix.to/#/\(room)/\(event)")),
                                                    client: ann.client)
        }
        XCTAssertEqual(try resolved(reaction).linkedEvent, plain, "a reaction: the message reacted to")
        XCTAssertNil(try resolved(reaction).postRoot)
        XCTAssertEqual(try resolved(edit).linkedEvent, reply, "an edit: the message edited, in its post")
        XCTAssertEqual(try resolved(edit).postRoot, root)
        for event in [membership, topic] {
            let address = try resolved(event)
            XCTAssertNil(address.postRoot)
            XCTAssertNil(address.linkedEvent, "nothing to look for")
            XCTAssertNotNil(address.linkedNote)
        }
        XCTAssertEqual(try resolved(membership).linkedNote, "the link names a membership change, not a message: the room opens at its newest")
    }
}
