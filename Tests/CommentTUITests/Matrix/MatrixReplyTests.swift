import Foundation
import XCTest
import SynapseFixture
import ThreadModel
import CommentTUITestSupport
@testable import CommentTUI

/// Replies in a room, against the real Synapse: what an Alt-R reply sends, and how a reply that
/// arrives shows what it answers.
final class MatrixReplyTests: SharedSynapseTestCase {
    func testAltRMentionsOnlyTheRepliedToSenderAndItsBodyNamesPeopleNotHandles() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Alt-R", on: server)
        let carol = try registerUser("carol", displayName: "Carol", on: server)
        _ = try carol.other.join(room)
        try bo.other.sendText(roomID: room, body: "post")
        // Bo's comment names Carol with a pill and has a literal asterisk.
        let question = try bo.other.send(roomID: room, content: [
            "msgtype": "m.text", "body": "ask Carol about 2*3",
            "format": "org.matrix.custom.html",
            "formatted_body": "ask <a href=\"https://matrix.to/#/\(carol.account.userID)\">Carol</a> about 2*3",
            "m.mentions": ["user_ids": [carol.account.userID]],
        ])
        let source = try open(room, as: ann)
        defer { source.stop() }
        let app = CommentApp(source: source, me: source.reader, columns: 80, rows: 24)
        let pilot = Pilot(app: app, screen: HeadlessScreen(columns: 80, rows: 24))
        pilot.draw()
        pilot.press(.altUp)
        pilot.feed("\u{1B}r")
        XCTAssertTrue(app.composer.draft.string.contains("@\(carol.localpart)"), "the quote shows Carol by her handle here: \(app.composer.draft.string)")
        pilot.type("sure")
        pilot.press(.enter)
        let shown = (0..<app.comments.count).compactMap { try? app.comments.comment(at: $0).get() }
        let sent = try XCTUnwrap(shown.last(where: { $0.body.hasSuffix("sure") }), "the reply is in the feed")
        try collectUpdates(from: source) { $0.contains { if case .sendConfirmed(sent.id) = $0 { true } else { false } } }

        let event = try XCTUnwrap(bo.other.messages(roomID: room).first {
            (($0["content"] as? [String: Any])?["m.relates_to"] as? [String: Any]) != nil
        })
        let content = try XCTUnwrap(event["content"] as? [String: Any])
        XCTAssertEqual(((content["m.relates_to"] as? [String: Any])?["m.in_reply_to"] as? [String: Any])?["event_id"] as? String, question)
        XCTAssertEqual((content["m.mentions"] as? [String: Any])?["user_ids"] as? [String], [bo.account.userID],
                       "the replied-to sender only, not Carol whom the quote names (MSC4142)")
        let body = try XCTUnwrap(content["body"] as? String)
        XCTAssertEqual(body, "> ask Carol about 2*3\n\nBo sure", "no Markdown escapes, no handles of ours")
        XCTAssertFalse(body.contains(carol.localpart) || body.contains(bo.localpart), body)
    }
}
