import XCTest
import ThreadModel
import SynapseFixture
import CommentTUITestSupport
@testable import CommentTUI

/// Enter on a post's root in a room's feed opens the post as a thread of its own; Esc goes back
/// to the room, as the client left it (draft and position kept), against the real Synapse.
final class MatrixPostOpeningTests: SharedSynapseTestCase {
    func testEnterOnARootOpensItsPostAndEscGoesBackToTheRoom() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Posts opening", on: server)
        // The creator's first message is the room's own post, in its header.
        try bo.other.sendText(roomID: room, body: "Welcome to the trip room")
        let root = try bo.other.sendText(roomID: room, body: "Ferry plans\nwhich one do we take")
        try bo.other.send(roomID: room, content: [
            "msgtype": "m.text", "body": "the early one",
            "m.relates_to": ["rel_type": "m.thread", "event_id": root, "is_falling_back": true, "m.in_reply_to": ["event_id": root]],
        ])
        try bo.other.sendText(roomID: room, body: "not a post")
        let environment = temporaryDataEnvironment()
        let account = ann.account.userID
        let opener = try ThreadOpener(inBackground: false) { key, _ in
            let address: MatrixRoomAddress
            switch key {
            case .room(_, let id): address = try XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(id)"))
            case .post(_, let id, let root): address = try XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(id)/\(root)"))
            default: throw CommandFailure("not a room")
            }
            let source = try MatrixThreadSource(client: ann.client, address: address, me: account, environment: environment,
                                                usesCache: false)
            return OpenCommand.Target(source: source, me: source.reader)
        }
        let roomKey = ThreadKey.room(account: account, roomID: room)
        let start = try opener.openNow(roomKey)
        let client = CommentClient(columns: 80, rows: 24, settings: CommentClient.SessionSettings(), start: start, startKey: roomKey,
                                   summaries: [], opener: opener, mailbox: try ClientMailbox())
        let pilot = Pilot(client: client, screen: HeadlessScreen(columns: 80, rows: 24))
        defer { for key in client.openOrder { client.sessions[key]?.source.close() } }
        let screen = { pilot.lines.joined(separator: "\n") }
        XCTAssertFalse(screen().contains("the early one"), "the reply is in its post, not the room's feed")

        // Enter on a comment that is no post's root sends nothing and opens nothing.
        pilot.press(KeyPress(.up, .alt))
        XCTAssertTrue(screen().contains("not a post"))
        pilot.press(.enter)
        pilot.takeUpdates()
        XCTAssertEqual(client.current?.source.thread.id, room)
        XCTAssertNil((client.current?.source as? MatrixThreadSource)?.postRoot)

        pilot.press(KeyPress(.up, .alt))
        pilot.press(.enter)
        pilot.takeUpdates()
        let post = try XCTUnwrap(client.current?.source as? MatrixThreadSource)
        XCTAssertEqual(post.postRoot, root, "Enter on the root opened its post")
        XCTAssertTrue(screen().contains("Ferry plans"), screen())
        XCTAssertTrue(screen().contains("the early one"), screen())
        XCTAssertFalse(screen().contains("not a post"), screen())

        // A draft in the post stays with the post; Esc goes back to the room as it was.
        pilot.type("draft in the post")
        pilot.press(.escape)
        pilot.takeUpdates()
        XCTAssertNil((client.current?.source as? MatrixThreadSource)?.postRoot, "Esc went back to the room")
        XCTAssertTrue(screen().contains("not a post"), screen())
        XCTAssertFalse(screen().contains("draft in the post"), screen())
        XCTAssertEqual(client.sessions[.post(account: account, roomID: room, root: root)]?.draft, "draft in the post")
    }
}
