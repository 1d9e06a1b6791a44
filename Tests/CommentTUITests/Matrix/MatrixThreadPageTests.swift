import XCTest
import ThreadModel
@testable import CommentTUI

/// Reading a page of a post's replies (`/relations/{root}/m.thread`): bundled edits applied,
/// what is no reply in the thread left out, and the page's token.
final class MatrixThreadPageTests: XCTestCase {
    private func reply(_ id: String, _ body: String, ts: Int, root: String = "$root", sender: String = "@bo:h.org",
                       edit: JSONValue? = nil, inReplyTo: String? = nil) -> JSONValue {
        var event: [String: JSONValue] = [
            "type": "m.room.message", "event_id": .string(id), "sender": .string(sender), "origin_server_ts": .number(Double(ts)),
            "content": ["msgtype": "m.text", "body": .string(body),
                        "m.relates_to": ["rel_type": "m.thread", "event_id": .string(root), "is_falling_back": .bool(inReplyTo == nil),
                                         "m.in_reply_to": ["event_id": .string(inReplyTo ?? root)]]],
        ]
        if let edit { event["unsigned"] = ["m.relations": ["m.replace": edit]] }
        return .object(event)
    }

    private func edit(of id: String, _ body: String, ts: Int, sender: String = "@bo:h.org") -> JSONValue {
        ["type": "m.room.message", "event_id": .string("$edit-\(id)-\(ts)"), "sender": .string(sender),
         "origin_server_ts": .number(Double(ts)),
         "content": ["msgtype": "m.text", "body": .string("* " + body), "m.new_content": ["msgtype": "m.text", "body": .string(body)],
                     "m.relates_to": ["rel_type": "m.replace", "event_id": .string(id)]]]
    }

    private func postTimeline() -> MatrixTimeline {
        var members = MatrixMembers(me: "@ann:h.org")
        members.update(["@ann:h.org": "Ann", "@bo:h.org": "Bo", "@cy:h.org": "Cy"])
        var line = MatrixTimeline(members: members)
        line.scope = .post(root: "$root")
        line.postEventID = "$root"
        return line
    }

    private func comments(_ updates: [ThreadUpdate]) -> [Comment] {
        var shown: [Comment] = []
        for update in updates {
            if case .commentsAppended(let list) = update { shown += list }
            if case .commentEdited(let edited) = update, let at = shown.firstIndex(where: { $0.id == edited.id }) { shown[at] = edited }
        }
        return shown
    }

    func testABundledEditIsAppliedToItsReplyOnTheNewestPageAndAnOlderOne() {
        let answer: JSONValue = ["chunk": [reply("$r2", "second", ts: 2000),
                                           reply("$r1", "frist", ts: 1000, edit: edit(of: "$r1", "first", ts: 3000))],
                                 "next_batch": "older-token"]
        let page = MatrixThreadPage(answer: answer, root: "$root")
        XCTAssertEqual(page.next, "older-token")
        XCTAssertEqual(page.olderToken.flatMap(MatrixThreadPage.relationsToken), "older-token", "kept marked as a /relations token")
        XCTAssertNil(MatrixThreadPage.relationsToken("s72_5_0"), "an unmarked token is a room's (an older copy's)")
        var newest = postTimeline()
        let opened = comments(newest.applyNewer(page.oldestFirst))
        XCTAssertEqual(opened.map(\.id), ["$r1", "$r2"])
        XCTAssertEqual(opened.map(\.body), ["first", "second"])
        XCTAssertNotNil(opened[0].edited)

        var older = postTimeline()
        let paged = older.applyOlder(page.newestFirst, state: []).comments
        XCTAssertEqual(paged.map(\.id), ["$r1", "$r2"], "oldest first")
        XCTAssertEqual(paged.map(\.body), ["first", "second"])
    }

    /// A post's offline copy starting again at a sync's token (after a gap, or at its limit)
    /// keeps it as a `/relations` token: its older pages read the post, not the room.
    func testAPostRestartsItsCopyAtARelationsTokenAndTheRoomAtItsOwn() {
        let post = MatrixThreadPage.restartToken("s72_5_0", inPost: true)
        XCTAssertEqual(MatrixThreadPage.relationsToken(post), "s72_5_0")
        XCTAssertEqual(MatrixThreadPage.restartToken(post, inPost: true), post, "marked once")
        XCTAssertEqual(MatrixThreadPage.restartToken("s72_5_0", inPost: false), "s72_5_0")
    }

    /// A room's page read for a post (an older copy's token) ends at the post's root.
    func testARoomPageForAPostEndsAtItsRoot() {
        let events: [JSONValue] = [reply("$r1", "one", ts: 2000), ["type": "m.room.message", "event_id": "$root", "sender": "@bo:h.org"]]
        XCTAssertNil(MatrixThreadPage.roomPageEnd("t1", events: events, root: "$root"))
        XCTAssertEqual(MatrixThreadPage.roomPageEnd("t1", events: Array(events.prefix(1)), root: "$root"), "t1")
        XCTAssertEqual(MatrixThreadPage.roomPageEnd("t1", events: events, root: nil), "t1", "the room's feed pages on")
    }

    /// An older client's fallback quote (plain `> ` lines, no formatted body) above a thread
    /// reply that only falls back is no part of the reply.
    func testAFallingBackReplysQuoteIsStripped() {
        let answer: JSONValue = ["chunk": [reply("$r1", "> <@cy:h.org> the post\n> more of it\n\nmy answer", ts: 1000)]]
        var line = postTimeline()
        XCTAssertEqual(comments(line.applyNewer(MatrixThreadPage(answer: answer, root: "$root").oldestFirst)).map(\.body), ["my answer"])
    }

    func testAThreadFallbackIsNoReplyAndARealReplyInTheThreadIs() {
        let answer: JSONValue = ["chunk": [reply("$r2", "to r1", ts: 2000, inReplyTo: "$r1"), reply("$r1", "plain", ts: 1000)]]
        var line = postTimeline()
        let shown = comments(line.applyNewer(MatrixThreadPage(answer: answer, root: "$root").oldestFirst))
        XCTAssertEqual(shown.map(\.replyTo), [nil, "$r1"])
    }

    func testAHostilePageGivesOnlyThisThreadsRepliesAndNoForgedEdit() {
        let answer: JSONValue = [
            "chunk": [
                "not an event", 42,
                reply("$other", "another thread", ts: 5000, root: "$elsewhere"),
                ["type": "m.room.message", "sender": "@bo:h.org", "content": ["body": "no id"]],
                // An edit by someone else, and one naming another event: neither applies.
                reply("$r2", "by bo", ts: 2000, edit: edit(of: "$r2", "forged", ts: 3000, sender: "@cy:h.org")),
                reply("$r1", "one", ts: 1000, edit: edit(of: "$r9", "misplaced", ts: 3000)),
                reply("$ctl", "bell\u{07}", ts: 1500),
            ],
            "next_batch": 7,
        ]
        let page = MatrixThreadPage(answer: answer, root: "$root")
        XCTAssertNil(page.next, "a token that is no string ends the walk")
        var line = postTimeline()
        let shown = comments(line.applyNewer(page.oldestFirst))
        XCTAssertEqual(shown.map(\.id), ["$ctl", "$r1", "$r2"])
        XCTAssertEqual(shown.map(\.body), ["bell\u{2407}", "one", "by bo"], "no control reaches a body; no forged edit applies")
        XCTAssertEqual(MatrixThreadPage(answer: ["chunk": "nope"], root: "$root").newestFirst, [])
        XCTAssertEqual(MatrixThreadPage(answer: "nothing", root: "$root").newestFirst, [])
    }
}
