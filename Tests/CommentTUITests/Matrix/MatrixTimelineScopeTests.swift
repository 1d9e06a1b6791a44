import XCTest
import ThreadModel
@testable import CommentTUI

/// A room's feed leaves thread replies to their post; a post shows only its own replies.
final class MatrixTimelineScopeTests: XCTestCase {
    private func message(_ id: String, _ body: String, ts: Int, thread root: String? = nil, replyTo: String? = nil) -> JSONValue {
        var content: [String: JSONValue] = ["msgtype": "m.text", "body": .string(body)]
        if let root {
            // As Element sends a thread reply: the thread, falling back to a reply for older clients.
            content["m.relates_to"] = ["rel_type": "m.thread", "event_id": .string(root), "is_falling_back": true,
                                       "m.in_reply_to": ["event_id": .string(replyTo ?? root)]]
        } else if let replyTo {
            content["m.relates_to"] = ["m.in_reply_to": ["event_id": .string(replyTo)]]
        }
        return ["type": "m.room.message", "event_id": .string(id), "sender": "@bo:h.org",
                "origin_server_ts": .number(Double(ts)), "content": .object(content)]
    }

    private func encrypted(_ id: String, thread root: String) -> JSONValue {
        ["type": "m.room.encrypted", "event_id": .string(id), "sender": "@bo:h.org", "origin_server_ts": 5000,
         "content": ["algorithm": "m.megolm.v1.aes-sha2", "session_id": "s", "ciphertext": "x",
                     "m.relates_to": ["rel_type": "m.thread", "event_id": .string(root)]]]
    }

    private var events: [JSONValue] {
        [message("$root", "a post", ts: 1000), message("$r1", "in the thread", ts: 2000, thread: "$root"),
         message("$old", "reply from an older client", ts: 3000, replyTo: "$root"),
         message("$r2", "in another thread", ts: 4000, thread: "$other"), encrypted("$e", thread: "$root")]
    }

    private func timeline(_ scope: MatrixTimelineScope) -> MatrixTimeline {
        var members = MatrixMembers(me: "@ann:h.org")
        members.update(["@ann:h.org": "Ann", "@bo:h.org": "Bo"])
        var line = MatrixTimeline(members: members)
        line.scope = scope
        if let root = scope.root { line.postEventID = root }
        return line
    }

    private func appended(_ updates: [ThreadUpdate]) -> [String] {
        updates.flatMap { update -> [String] in
            if case .commentsAppended(let list) = update { return list.map(\.id) }
            return []
        }
    }

    func testTheRoomsFeedLeavesThreadRepliesOutAndKeepsAPlainReply() {
        var line = timeline(.room)
        XCTAssertEqual(appended(line.applyNewer(events)), ["$root", "$old"])
        var older = timeline(.room)
        XCTAssertEqual(older.applyOlder(events.reversed(), state: []).comments.map(\.id), ["$root", "$old"])
    }

    func testAPostShowsOnlyItsOwnRepliesAndNotItsRoot() {
        var line = timeline(.post(root: "$root"))
        XCTAssertEqual(appended(line.applyNewer(events)), ["$r1", "$e"])
        var older = timeline(.post(root: "$root"))
        XCTAssertEqual(older.applyOlder(events.reversed(), state: []).comments.map(\.id), ["$r1", "$e"])
    }

    func testAnEditOfAThreadReplyReachesItInThePost() {
        var line = timeline(.post(root: "$root"))
        _ = line.applyNewer(events)
        let edit: JSONValue = ["type": "m.room.message", "event_id": "$x", "sender": "@bo:h.org", "origin_server_ts": 6000,
                               "content": ["msgtype": "m.text", "body": "* fixed", "m.new_content": ["msgtype": "m.text", "body": "fixed"],
                                           "m.relates_to": ["rel_type": "m.replace", "event_id": "$r1"]]]
        XCTAssertEqual(line.applyNewer([edit]).count, 1, "the edit is applied to the post's reply")
        XCTAssertEqual(line.changed["$r1"]?.body, "fixed")
    }

    func testAThreadRootNotOfAnEventIDsShapeIsNoThread() {
        // A hostile server's "thread reply": its root would be a post's root, key and cache file.
        for root in ["not-an-id", "$", "$a\u{1B}[31m", "$../../x y", "$" + String(repeating: "a", count: 300)] {
            XCTAssertNil(MatrixTimelineScope.threadRoot(of: message("$r", "x", ts: 1, thread: root)), root)
        }
        XCTAssertEqual(MatrixTimelineScope.threadRoot(of: message("$r", "x", ts: 1, thread: "$abc+/:h.org")), "$abc+/:h.org")
    }
}
