import XCTest
import ThreadModel
@testable import CommentTUI

/// A room's feed sums each post (Matrix thread) up under its root: the bundled aggregation read,
/// replies arriving live counted once each, hostile numbers clamped, unread from the server's
/// per-post counts, else from our threaded receipt.
final class MatrixTimelinePostSummaryTests: XCTestCase {
    private func message(_ id: String, ts: Double, sender: String = "@bo:h.org", thread root: String? = nil,
                         bundle: JSONValue? = nil) -> JSONValue {
        var content: [String: JSONValue] = ["msgtype": "m.text", "body": .string("text of \(id)")]
        if let root {
            content["m.relates_to"] = ["rel_type": "m.thread", "event_id": .string(root), "is_falling_back": true,
                                       "m.in_reply_to": ["event_id": .string(root)]]
        }
        var event: [String: JSONValue] = ["type": "m.room.message", "event_id": .string(id), "sender": .string(sender),
                                          "origin_server_ts": .number(ts), "content": .object(content)]
        if let bundle { event["unsigned"] = ["m.relations": ["m.thread": bundle]] }
        return .object(event)
    }

    /// A bundle as Synapse gives it with a root.
    private func bundle(count: JSONValue, latest: JSONValue) -> JSONValue {
        ["count": count, "latest_event": latest, "current_user_participated": false]
    }

    private func timeline(_ scope: MatrixTimelineScope = .room) -> MatrixTimeline {
        var members = MatrixMembers(me: "@ann:h.org")
        members.update(["@ann:h.org": "Ann", "@bo:h.org": "Bo", "@cy:h.org": "Cy"])
        var line = MatrixTimeline(members: members)
        line.scope = scope
        return line
    }

    /// The summaries an update list carries, by comment id (nil: none).
    private func summaries(_ updates: [ThreadUpdate]) -> [String: PostSummary?] {
        var found: [String: PostSummary?] = [:]
        for update in updates { if case .postSummaryChanged(let id, let summary) = update { found[id] = .some(summary) } }
        return found
    }

    private var rootWithTwoReplies: JSONValue {
        message("$root", ts: 1000, bundle: bundle(count: 2, latest: message("$r2", ts: 3000, sender: "@cy:h.org", thread: "$root")))
    }

    func testABundledSummaryIsReadWithItsRootInAPageAndASync() throws {
        var line = timeline()
        let summary = try XCTUnwrap(summaries(line.applyNewer([rootWithTwoReplies]))["$root"] ?? nil)
        XCTAssertEqual(summary.replyCount, 2)
        XCTAssertEqual(summary.latestAuthor, "@cy:h.org")
        XCTAssertEqual(summary.latestName, "Cy")
        XCTAssertEqual(summary.latestAt, Date(timeIntervalSince1970: 3))
        XCTAssertFalse(summary.isUnread, "nothing says it is unread")
        var older = timeline()
        let page = older.applyOlder([rootWithTwoReplies], state: [])
        XCTAssertEqual(page.comments.map(\.id), ["$root"])
        XCTAssertEqual((summaries(page.updates)["$root"] ?? nil)?.replyCount, 2)
        XCTAssertEqual(older.allPostSummaryUpdates().count, 1, "the opening reports it again")
    }

    /// A reply arriving by sync adds one and becomes the newest; the same event again (the
    /// account's sync and the room's catch-up overlap), or the bundle's own newest reply, adds nothing.
    func testALiveReplyCountsOnceEvenWhenSyncsOverlap() throws {
        var line = timeline()
        _ = line.applyNewer([rootWithTwoReplies])
        XCTAssertTrue(summaries(line.applyNewer([message("$r2", ts: 3000, sender: "@cy:h.org", thread: "$root")])).isEmpty,
                      "the bundle's newest reply is counted already")
        let reply = message("$r3", ts: 4000, sender: "@bo:h.org", thread: "$root")
        let summary = try XCTUnwrap(summaries(line.applyNewer([reply]))["$root"] ?? nil)
        XCTAssertEqual(summary.replyCount, 3)
        XCTAssertEqual(summary.latestAuthor, "@bo:h.org")
        XCTAssertEqual(summary.latestAt, Date(timeIntervalSince1970: 4))
        XCTAssertTrue(summaries(line.applyNewer([reply])).isEmpty, "applied once")
        XCTAssertEqual((line.allPostSummaryUpdates().first.flatMap { summaries([$0])["$root"] ?? nil })?.replyCount, 3)
        // A root with no replies yet gets its first.
        _ = line.applyNewer([message("$new", ts: 5000)])
        XCTAssertEqual((summaries(line.applyNewer([message("$n1", ts: 6000, thread: "$new")]))["$new"] ?? nil)?.replyCount, 1)
    }

    /// A reply counted live and then redacted is off the count; the last one gone, no summary.
    func testARedactedLiveReplyIsOffTheCount() {
        var line = timeline()
        _ = line.applyNewer([message("$root", ts: 1000)])
        _ = line.applyNewer([message("$r1", ts: 2000, thread: "$root"), message("$r2", ts: 3000, thread: "$root")])
        func redaction(_ id: String, of target: String) -> JSONValue {
            ["type": "m.room.redaction", "event_id": .string(id), "sender": "@bo:h.org", "origin_server_ts": 4000, "redacts": .string(target),
             "content": ["redacts": .string(target)]]
        }
        XCTAssertEqual((summaries(line.applyNewer([redaction("$x1", of: "$r2")]))["$root"] ?? nil)?.replyCount, 1)
        XCTAssertTrue(summaries(line.applyNewer([redaction("$x2", of: "$r2")])).isEmpty, "once")
        XCTAssertEqual(summaries(line.applyNewer([redaction("$x3", of: "$r1")]))["$root"], .some(nil), "none left")
    }

    /// A newer page's bundle replaces a count made live; an older one does not undo a live reply.
    func testANewerBundleWinsAndAnOlderOneDoesNot() {
        var line = timeline()
        _ = line.applyNewer([rootWithTwoReplies, message("$r3", ts: 4000, thread: "$root")])
        let stale = message("$root", ts: 1000, bundle: bundle(count: 2, latest: message("$r2", ts: 3000, sender: "@cy:h.org")))
        XCTAssertTrue(summaries(line.applyOlder([stale], state: []).updates).isEmpty)
        let fresh = message("$root", ts: 1000, bundle: bundle(count: 7, latest: message("$r7", ts: 9000, sender: "@cy:h.org")))
        XCTAssertEqual((summaries(line.applyOlder([fresh], state: []).updates)["$root"] ?? nil)?.replyCount, 7)
    }

    func testHostileCountsAreClampedAndABundleWithoutASenderIsNone() {
        func read(_ count: JSONValue, latest: JSONValue? = nil) -> PostSummary? {
            var line = timeline()
            let root = message("$root", ts: 1000, bundle: bundle(count: count, latest: latest ?? message("$r", ts: 2000, thread: "$root")))
            return summaries(line.applyNewer([root]))["$root"] ?? nil
        }
        XCTAssertNil(read(-5), "a negative count is none")
        XCTAssertEqual(read(.number(1e300))?.replyCount, MatrixThreadSummaries.mostReplies)
        XCTAssertEqual(read(.number(.nan))?.replyCount, 1, "no number: the newest reply, at least")
        XCTAssertEqual(read("three")?.replyCount, 1)
        XCTAssertEqual(read(.number(2.7))?.replyCount, 2)
        XCTAssertNil(read(3, latest: ["event_id": "$r", "origin_server_ts": 2000]), "no sender: no summary")
        XCTAssertNil(read(3, latest: "not an event"))
        XCTAssertEqual(read(3, latest: message("$r", ts: -1e300, thread: "$root"))?.latestAt, MatrixServerNumber.earliestTime)
        // A count at the bound does not grow past it.
        var line = timeline()
        _ = line.applyNewer([message("$root", ts: 1000, bundle: bundle(count: .number(1e300), latest: message("$r", ts: 2000)))])
        XCTAssertEqual((summaries(line.applyNewer([message("$r9", ts: 3000, thread: "$root")]))["$root"] ?? nil)?.replyCount,
                       MatrixThreadSummaries.mostReplies)
    }

    /// Unread as the server counts it per post once it said; before that, a newest reply of
    /// someone else's that our threaded receipt does not cover (it is on an earlier event).
    func testUnreadFromTheServersCountsElseFromOurThreadedReceipt() throws {
        var line = timeline()
        _ = line.applyNewer([rootWithTwoReplies])
        func receipt(_ event: String) -> JSONValue {
            ["ephemeral": ["events": [["type": "m.receipt", "content": [event: ["m.read": ["@ann:h.org": ["ts": 2000, "thread_id": "$root"]]]]]]]]
        }
        XCTAssertEqual((summaries(line.postsRead(in: receipt("$r1")))["$root"] ?? nil)?.isUnread, true, "read before its newest reply")
        XCTAssertEqual((summaries(line.postsRead(in: receipt("$r2")))["$root"] ?? nil)?.isUnread, false)
        XCTAssertTrue(line.postsRead(in: [:]).isEmpty, "a sync without counts, before any: says nothing")
        let counted = try XCTUnwrap(summaries(line.postsRead(in: ["unread_thread_notifications": [
            "$root": ["notification_count": 2, "highlight_count": 1], "$elsewhere": ["notification_count": -4],
        ]]))["$root"] ?? nil)
        XCTAssertEqual([counted.isUnread ? 1 : 0, counted.unreadCount, counted.mentionCount], [1, 2, 1])
        // Once counted, a sync that leaves the post out says it is read.
        XCTAssertEqual((summaries(line.postsRead(in: [:]))["$root"] ?? nil)?.isUnread, false)
    }

    func testAPostsOwnFeedSumsNothingUp() {
        var line = timeline(.post(root: "$root"))
        line.postEventID = "$root"
        let updates = line.applyNewer([rootWithTwoReplies, message("$r3", ts: 4000, thread: "$root")])
        XCTAssertTrue(summaries(updates).isEmpty)
        XCTAssertTrue(line.postsRead(in: ["unread_thread_notifications": ["$root": ["notification_count": 2]]]).isEmpty)
    }
}
