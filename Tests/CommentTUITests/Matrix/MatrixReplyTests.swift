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
        let (bo, ann, carol, room) = try threeInARoomWithAPost("Alt-R", on: server)
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
        XCTAssertTrue(app.draft.contains("@\(carol.localpart)"), "the quote shows Carol by her handle here: \(app.draft)")
        pilot.type("sure")
        pilot.press(.enter)
        let shown = (0..<app.commentCount).compactMap { app.comment(at: $0) }
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

    func testAnIncomingReplyQuotesWhatItAnswersFetchedIfNotLoadedAndAltJGoesThere() throws {
        let server = try server
        let (bo, ann, carol, room) = try threeInARoomWithAPost("Replies shown", on: server)
        let question = try bo.other.sendText(roomID: room, body: "Which ferry do we take?")
        var filler: [String] = []
        for n in 1...(MatrixThreadSource.pageSize + 10) { filler.append(try bo.other.sendText(roomID: room, body: "filler \(n)")) }
        // Element's shape: a fallback quote in body and formatted_body, the relation beside.
        try carol.other.send(roomID: room, content: [
            "msgtype": "m.text",
            "body": "> <\(bo.account.userID)> Which ferry do we take?\n\nThe early one",
            "format": "org.matrix.custom.html",
            "formatted_body": "<mx-reply><blockquote><a href=\"https://matrix.to/#/\(room)/\(question)\">In reply to</a> "
                + "<a href=\"https://matrix.to/#/\(bo.account.userID)\">Bo</a><br>Which ferry do we take?</blockquote></mx-reply>The early one",
            "m.relates_to": ["m.in_reply_to": ["event_id": question]],
        ])
        // Without a fallback (Matrix 1.13), to a comment on the opening page.
        try carol.other.sendText(roomID: room, body: "agreed", inReplyTo: filler[filler.count - 3])
        let source = try open(room, as: ann)
        defer { source.stop() }
        let app = CommentApp(source: source, me: source.reader, columns: 80, rows: 24)
        let pilot = Pilot(app: app, screen: HeadlessScreen(columns: 80, rows: 24))
        pilot.settle()
        var screen: String { pilot.lines.joined(separator: "\n") }
        XCTAssertTrue(screen.contains("↪ Bo: filler \(filler.count - 2)"), "a loaded target is quoted at once:\n\(screen)")
        XCTAssertFalse(screen.contains("In reply to") || screen.contains("<@"), "no fallback shows:\n\(screen)")
        // A click on that quote goes to (and selects) the comment it quotes.
        let quoteRow = try XCTUnwrap(pilot.lines.firstIndex { $0.contains("↪ Bo: filler \(filler.count - 2)") })
        pilot.click(column: try XCTUnwrap(pilot.lines[quoteRow].firstIndex(of: "↪")).utf16Offset(in: pilot.lines[quoteRow]) + 2, row: quoteRow)
        XCTAssertEqual(app.selectedCommentIndex.flatMap { app.comment(at: $0)?.id }, filler[filler.count - 3])
        pilot.press(.escape)

        // The question is further back than the opening page: fetched, then quoted.
        try waits(for: "↪ Bo: Which ferry do we take?", on: pilot, from: source, runningFrames: false)
        XCTAssertTrue(screen.contains("   │ ↪ Bo: Which ferry do we take?\n"), "the fetched target is quoted, whole, in one row:\n\(screen)")
        XCTAssertTrue(screen.contains("The early one"))

        // The fetched target deleted: its quote follows.
        _ = try bo.other.redact(roomID: room, eventID: question)
        try waits(for: "↪ Bo: (deleted)", on: pilot, from: source, runningFrames: false)
        XCTAssertTrue(screen.contains("   │ ↪ Bo: (deleted)\n"), "the deleted target's quote says so:\n\(screen)")

        // Alt-J on the reply goes to the question, loading older pages until it is there.
        pilot.press(.altUp)
        pilot.press(.altUp)
        XCTAssertEqual(try XCTUnwrap(app.comment(at: try XCTUnwrap(app.selectedCommentIndex))).body, "The early one")
        pilot.feed("\u{1B}j")
        let found = Date().addingTimeInterval(30)
        while app.index(ofComment: question, limit: app.commentCount) == nil || app.selectedCommentIndex.map({ app.comment(at: $0)?.id }) != question,
              Date() < found {
            if let ready = source.updatesReady { _ = try Poll.readable([ready], timeout: 1) }
            app.receive(source.takeUpdates())
            pilot.advance(by: 1)
        }
        pilot.settle()
        XCTAssertEqual(app.selectedCommentIndex.flatMap { app.comment(at: $0)?.id }, question)
        XCTAssertEqual(try XCTUnwrap(app.comment(at: try XCTUnwrap(app.selectedCommentIndex))).body, "(deleted)", "loaded as it is now")
    }

    func testADeletedTargetThatIsNotLoadedIsQuotedAnew() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Deleted far back", on: server)
        let carol = try registerUser("carol", displayName: "Carol", on: server)
        _ = try carol.other.join(room)
        let question = try bo.other.sendText(roomID: room, body: "Which ferry do we take?")
        // Further back than the pages the feed loads on its own near its top.
        for n in 1...(FeedScroll.edgeMargin + MatrixThreadSource.pageSize * 2) { try bo.other.sendText(roomID: room, body: "filler \(n)") }
        try carol.other.sendText(roomID: room, body: "The early one", inReplyTo: question)
        let source = try open(room, as: ann)
        defer { source.stop() }
        let app = CommentApp(source: source, me: source.reader, columns: 80, rows: 24)
        let pilot = Pilot(app: app, screen: HeadlessScreen(columns: 80, rows: 24))
        var screen: String { pilot.lines.joined(separator: "\n") }
        try waits(for: "↪ Bo: Which ferry do we take?", on: pilot, from: source)
        XCTAssertTrue(screen.contains("   │ ↪ Bo: Which ferry do we take?\n"), "fetched and quoted:\n\(screen)")
        _ = try bo.other.redact(roomID: room, eventID: question)
        try waits(for: "↪ Bo: (deleted)", on: pilot, from: source)
        XCTAssertTrue(screen.contains("   │ ↪ Bo: (deleted)\n"), "the quote follows the deletion:\n\(screen)")
        XCTAssertNil(app.index(ofComment: question, limit: app.commentCount), "the target was never loaded: fetched again")
    }

    /// Bo's room `name` with a post in it, Ann and Carol members.
    private func threeInARoomWithAPost(_ name: String, on server: SynapseServer) throws
        -> (bo: MatrixTestUser, ann: MatrixTestUser, carol: MatrixTestUser, room: String) {
        let (bo, ann, room) = try twoUsersInARoom(name, on: server)
        let carol = try registerUser("carol", displayName: "Carol", on: server)
        _ = try carol.other.join(room)
        try bo.other.sendText(roomID: room, body: "post")
        return (bo, ann, carol, room)
    }

    /// Takes the source's updates, a second of the pilot's clock after each (and the frames that
    /// second draws, if `runningFrames`), until the screen shows `text` or 20 s pass.
    private func waits(for text: String, on pilot: Pilot, from source: ThreadSource, runningFrames: Bool = true) throws {
        let deadline = Date().addingTimeInterval(20)
        while !pilot.lines.joined(separator: "\n").contains(text), Date() < deadline {
            if let ready = source.updatesReady { _ = try Poll.readable([ready], timeout: 1) }
            pilot.app.receive(source.takeUpdates())
            pilot.advance(by: 1)
            if runningFrames { pilot.runFrames() }
        }
    }
}
