import Foundation
import ThreadModel
import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// A comment whose text merely says "(deleted)" is an ordinary comment on screen and in a room:
/// Alt-K reacts to it; only a deletion (a file's `delete` record, a room's redaction) deletes.
final class DeletedFlagTests: XCTestCase {
    func testAltKOnACommentThatSaysDeletedOpensThePicker() throws {
        let live = try LiveThreadFile(self, comments: 1)
        try ThreadFileWriter(path: live.path).append([.comment(LiveThreadFile.comment("c2", body: "(deleted)"))])
        let pilot = Pilot(app: try live.openApp(columns: 80, rows: 20), screen: HeadlessScreen(columns: 80, rows: 20))
        pilot.advance(by: 1)
        pilot.press(.altUp)   // c2, which says "(deleted)"
        pilot.advance(by: 1)
        pilot.feed("\u{1B}k")
        XCTAssertNotNil(pilot.app.reactionPicker, "\(pilot.app.message ?? "")")
        XCTAssertTrue(pilot.lines.contains { $0.hasPrefix("react: ") }, pilot.lines.joined(separator: "\n"))
    }

    private func event(_ id: String, _ type: String, _ sender: String, ts: Int, _ content: JSONValue, redacts: String? = nil) -> JSONValue {
        var event: [String: JSONValue] = ["type": .string(type), "event_id": .string(id), "sender": .string(sender),
                                          "origin_server_ts": .number(Double(ts)), "content": content]
        if let redacts { event["redacts"] = .string(redacts) }
        return .object(event)
    }

    private func comments(_ updates: [ThreadUpdate]) -> [Comment] {
        updates.flatMap { update -> [Comment] in
            switch update {
            case .commentsAppended(let list): list
            case .commentEdited(let comment): [comment]
            default: []
            }
        }
    }

    func testARoomMessageThatSaysDeletedIsOrdinaryAndARedactionDeletes() {
        var members = MatrixMembers(me: "@ann:h.org")
        members.update(["@ann:h.org": "Ann", "@bo:h.org": "Bo"])
        var line = MatrixTimeline(members: members)
        let says = event("$a", "m.room.message", "@bo:h.org", ts: 1000, ["msgtype": "m.text", "body": "(deleted)"])
        XCTAssertEqual(comments(line.applyNewer([says])).map(\.isDeleted), [false])
        // Bo edits it, and someone reacts: both count, as on any comment.
        let edit = event("$e", "m.room.message", "@bo:h.org", ts: 2000, [
            "msgtype": "m.text", "body": "* fixed", "m.new_content": ["msgtype": "m.text", "body": "fixed"],
            "m.relates_to": ["rel_type": "m.replace", "event_id": "$a"]])
        let react = event("$r", "m.reaction", "@ann:h.org", ts: 2001,
                          ["m.relates_to": ["rel_type": "m.annotation", "event_id": "$a", "key": "👍"]])
        XCTAssertEqual(comments(line.applyNewer([edit, react])).map(\.body), ["fixed"])
        XCTAssertFalse(line.reactions.counts(of: "$a", me: "@ann:h.org").isEmpty)
        // A redaction deletes it.
        let redaction = event("$x", "m.room.redaction", "@bo:h.org", ts: 3000, ["redacts": "$a"], redacts: "$a")
        let deleted = comments(line.applyNewer([redaction]))
        XCTAssertEqual(deleted.map(\.isDeleted), [true])
        XCTAssertEqual(deleted.map(\.body), ["(deleted)"])
    }

    func testAnOlderPageEditThatSaysDeletedIsAnEditNotARedaction() {
        var members = MatrixMembers(me: "@ann:h.org")
        members.update(["@ann:h.org": "Ann", "@bo:h.org": "Bo"])
        var line = MatrixTimeline(members: members)
        // Newest first, as /messages?dir=b gives them: Bo's edit to "(deleted)", then a reaction, then his message.
        let edit = event("$e", "m.room.message", "@bo:h.org", ts: 2000, [
            "msgtype": "m.text", "body": "* (deleted)", "m.new_content": ["msgtype": "m.text", "body": "(deleted)"],
            "m.relates_to": ["rel_type": "m.replace", "event_id": "$a"]])
        let react = event("$r", "m.reaction", "@ann:h.org", ts: 1500,
                          ["m.relates_to": ["rel_type": "m.annotation", "event_id": "$a", "key": "👍"]])
        let message = event("$a", "m.room.message", "@bo:h.org", ts: 1000, ["msgtype": "m.text", "body": "typo"])
        let page = line.applyOlder([edit, react, message], state: []).comments
        XCTAssertEqual(page.map(\.body), [#"\(deleted\)"#], "the edit's text, as Markdown")
        XCTAssertEqual(page.map(\.isDeleted), [false], "an edit whose text says so")
        XCTAssertNotNil(page.first?.edited)
        XCTAssertFalse(line.reactions.counts(of: "$a", me: "@ann:h.org").isEmpty, "the reaction to it is kept")
    }
}
