import Foundation
import ThreadModel
import XCTest
@testable import CommentTUI

/// Roots marked as posts (`MatrixPostMark`) seen in a room's timeline are home's rows under the
/// room until `/threads` lists them: listed once, by event id; gone when redacted; a thread
/// reply, an edit or an unmarked message is none; bounded per room.
final class MatrixMarkedPostsTests: XCTestCase {
    private let room = "!r:a.org"
    private let me = "@ann:a.org"

    private func marked(_ id: String, _ title: String, ts: Int, extra: [String: JSONValue] = [:]) -> JSONValue {
        var fields = extra
        fields[MatrixPostMark.field] = ["title": .string(title)]
        return SyncAnswer.message(id, from: "@bo:a.org", "\(title)\n\nthe details", ts: ts, extra: fields)
    }

    private func answer(_ timeline: [JSONValue], _ batch: String) -> JSONValue {
        SyncAnswer.answer(join: [room: SyncAnswer.joined(timeline: timeline)], nextBatch: batch)
    }

    private func postRows(_ rooms: MatrixAccountRooms) -> [ThreadSummary] {
        rooms.summaries.filter { $0.key.postRoom == .room(account: me, roomID: room) }
    }

    private func threadsRoot(_ id: String, ts: Int, replies: Int) -> JSONValue {
        ["event_id": .string(id), "sender": "@bo:a.org", "origin_server_ts": .number(Double(ts)), "type": "m.room.message",
         "content": ["msgtype": "m.text", "body": "from threads", MatrixPostMark.field: ["title": "from threads"]],
         "unsigned": ["m.relations": ["m.thread": [
             "count": .number(Double(replies)), "latest_event": ["event_id": "$reply", "sender": "@cy:a.org",
                                                                  "origin_server_ts": .number(Double(ts + 5)), "content": ["body": "a reply"]],
         ]]]]
    }

    func testAMarkedRootIsListedUnderItsRoomOnceAndTheServersRowTakesOver() {
        var rooms = MatrixAccountRooms(account: me)
        rooms.apply(sync: answer([
            SyncAnswer.message("$plain", from: "@bo:a.org", "an ordinary message", ts: 1_000),
            marked("$post", "Ferry plans", ts: 2_000),
            SyncAnswer.message("$later", from: "@bo:a.org", "a later message", ts: 3_000),
        ], "s1"))
        XCTAssertEqual(postRows(rooms).map(\.name), ["Ferry plans"], "the marked root alone")
        XCTAssertEqual(postRows(rooms).first?.key, .post(account: me, roomID: room, root: "$post"))
        XCTAssertEqual(postRows(rooms).first?.replies, 0)
        // Seen again (the cache's copy and the sync overlapping): still once.
        rooms.apply(sync: answer([marked("$post", "Ferry plans", ts: 2_000)], "s2"))
        XCTAssertEqual(postRows(rooms).count, 1)

        // A reply in it comes: the row shows it until `/threads` counts.
        rooms.apply(sync: answer([SyncAnswer.message("$r1", from: "@cy:a.org", "the early one", ts: 4_000, extra: [
            "m.relates_to": ["rel_type": "m.thread", "event_id": "$post"]])], "s3"))
        XCTAssertEqual(postRows(rooms).first?.replies, 1)
        XCTAssertEqual(postRows(rooms).first?.preview, "the early one")
        // `/threads` lists it: its row, once.
        rooms.setPosts(roomID: room, MatrixRoomPosts(roots: [threadsRoot("$post", ts: 2_000, replies: 2)], next: nil, limits: rooms.limits))
        XCTAssertEqual(postRows(rooms).map(\.name), ["from threads"])
        XCTAssertEqual(postRows(rooms).first?.replies, 2)
    }

    func testAPageThatHoldsAMarkedRootPastTheShownOnesStillListsItOnce() {
        var rooms = MatrixAccountRooms(account: me)
        rooms.apply(sync: answer([marked("$old", "An old post", ts: 100)], "s1"))
        let roots = (1...5).map { threadsRoot("$t\($0)", ts: 1_000 * $0, replies: 1) } + [threadsRoot("$old", ts: 100, replies: 1)]
        rooms.setPosts(roomID: room, MatrixRoomPosts(roots: roots, next: nil, limits: rooms.limits))
        XCTAssertEqual(postRows(rooms).count, MatrixRoomPosts.shown)
        XCTAssertFalse(postRows(rooms).contains { $0.key == .post(account: me, roomID: room, root: "$old") })
        XCTAssertEqual(postRows(rooms).last?.morePosts, "3", "counted once among the page's")
    }

    func testMarkedRootsAreNewestFirstAmongTheListedOnesAndCounted() {
        var rooms = MatrixAccountRooms(account: me)
        rooms.apply(sync: answer([marked("$a", "A", ts: 5_000), marked("$b", "B", ts: 6_000), marked("$c", "C", ts: 500)], "s1"))
        rooms.setPosts(roomID: room, MatrixRoomPosts(roots: [threadsRoot("$t1", ts: 1_000, replies: 1)], next: nil, limits: rooms.limits))
        XCTAssertEqual(postRows(rooms).map(\.name), ["B", "A", "from threads"], "by activity (a page's post by its reply's)")
        XCTAssertEqual(postRows(rooms).last?.morePosts, "1")
    }

    func testARedactedUnmarkedOrRelatedEventIsNoListedPost() {
        var rooms = MatrixAccountRooms(account: me)
        rooms.apply(sync: answer([
            marked("$gone", "Gone", ts: 1_000),
            marked("$reply", "A reply", ts: 1_100, extra: ["m.relates_to": ["rel_type": "m.thread", "event_id": "$gone"]]),
            marked("$edit", "An edit", ts: 1_200, extra: ["m.relates_to": ["rel_type": "m.replace", "event_id": "$gone"]]),
            SyncAnswer.message("$fake", from: "@bo:a.org", "a mark that is no object", ts: 1_300, extra: [MatrixPostMark.field: "yes"]),
            marked("bad-id", "No id", ts: 1_400),
        ], "s1"))
        XCTAssertEqual(postRows(rooms).map(\.name), ["Gone"])
        rooms.apply(sync: answer([SyncAnswer.event("m.room.redaction", "$x", from: "@bo:a.org", ts: 2_000, content: ["redacts": "$gone"])], "s2"))
        XCTAssertEqual(postRows(rooms).count, 0, "redacted: gone")
    }

    func testMarkedRootsAreBoundedPerRoomAndTheirTitlesCut() {
        var limits = MatrixAccountRooms.Limits()
        limits.markedPosts = 4
        limits.nameBytes = 8
        var rooms = MatrixAccountRooms(account: me, limits: limits)
        rooms.apply(sync: answer((1...30).map { marked("$p\($0)", "Post number \($0)", ts: $0 * 100) }, "s1"))
        let room = rooms.summaries.compactMap { _ in rooms.rooms[self.room] }.first
        XCTAssertEqual(room?.markedPosts?.map(\.root), ["$p30", "$p29", "$p28", "$p27"], "the newest kept")
        XCTAssertEqual(postRows(rooms).first?.name, "Post num")
    }

    /// A hostile server's answer of 50,000 marked roots: read in one pass (the rows kept are
    /// looked up by id and cut back as they pass twice the limit), the newest kept, a reply and
    /// a redaction in it still applied.
    func testAHugeAnswerOfMarkedRootsKeepsTheNewestAndItsReplyAndRedaction() {
        var rooms = MatrixAccountRooms(account: me)
        let count = 50_000
        var timeline = (1...count).map { marked("$p\($0)", "Post \($0)", ts: $0) }
        timeline.append(SyncAnswer.message("$r", from: "@cy:a.org", "a reply late in the answer", ts: count + 1, extra: [
            "m.relates_to": ["rel_type": "m.thread", "event_id": .string("$p\(count - 1)")]]))
        timeline.append(SyncAnswer.event("m.room.redaction", "$x", from: "@bo:a.org", ts: count + 2, content: ["redacts": .string("$p\(count)")]))
        rooms.apply(sync: answer(timeline, "s1"))
        let kept = rooms.rooms[room]?.markedPosts ?? []
        // A redaction after a cut may leave one fewer than the limit: the cut forgot the older ones.
        XCTAssertTrue((rooms.limits.markedPosts - 1...rooms.limits.markedPosts).contains(kept.count), "\(kept.count)")
        XCTAssertEqual(kept.first?.root, "$p\(count - 1)", "the replied one, most recently active")
        XCTAssertEqual(kept.first?.replies, 1)
        XCTAssertFalse(kept.contains { $0.root == "$p\(count)" }, "redacted")
        XCTAssertEqual(kept.dropFirst().map(\.root), (2..<(kept.count + 1)).map { "$p\(count - $0)" }, "the newest, newest first")
    }

    /// A redaction of a marked root takes its row only when the server would honour it: by the
    /// root's sender, or by someone the power levels let redact; with none known, the sender's alone.
    func testARedactionTakesAMarkedRootOnlyFromItsSenderOrOneWithThePower() {
        func redaction(_ id: String, by sender: String, of root: String) -> JSONValue {
            SyncAnswer.event("m.room.redaction", id, from: sender, ts: 3_000, content: ["redacts": .string(root)])
        }
        let levels: JSONValue = ["type": "m.room.power_levels", "state_key": "", "event_id": "$pl", "sender": "@bo:a.org",
                                 "origin_server_ts": 500, "content": ["redact": 50, "users": ["@mod:a.org": 50, "@bo:a.org": 100]]]
        var rooms = MatrixAccountRooms(account: me)
        rooms.apply(sync: SyncAnswer.answer(join: [room: SyncAnswer.joined(state: [levels], timeline: [marked("$post", "Kept", ts: 1_000)])],
                                            nextBatch: "s1"))
        rooms.apply(sync: answer([redaction("$x1", by: "@cy:a.org", of: "$post")], "s2"))
        XCTAssertEqual(postRows(rooms).map(\.name), ["Kept"], "a member without the power: not honoured")
        rooms.apply(sync: answer([redaction("$x2", by: "@mod:a.org", of: "$post")], "s3"))
        XCTAssertEqual(postRows(rooms).count, 0, "a moderator's: gone")

        var unknown = MatrixAccountRooms(account: me)
        unknown.apply(sync: answer([marked("$post", "Kept", ts: 1_000)], "s1"))
        unknown.apply(sync: answer([redaction("$x1", by: "@mod:a.org", of: "$post")], "s2"))
        XCTAssertEqual(postRows(unknown).count, 1, "power not known: only its sender's")
        unknown.apply(sync: answer([redaction("$x2", by: "@bo:a.org", of: "$post")], "s3"))
        XCTAssertEqual(postRows(unknown).count, 0, "its sender's own: gone")
    }

    /// In the room's feed, Enter on a marked root opens its post, though no reply names it yet.
    func testInTheRoomsFeedAMarkedRootIsAPostsRoot() {
        var members = MatrixMembers(me: me)
        members.update([me: "Ann", "@bo:a.org": "Bo"])
        var timeline = MatrixTimeline(members: members)
        _ = timeline.applyNewer([marked("$post", "Ferry plans", ts: 1_000),
                                 SyncAnswer.message("$plain", from: "@bo:a.org", "an ordinary message", ts: 2_000)])
        XCTAssertEqual(timeline.postRoots, ["$post"])
    }

    func testTheMarkSurvivesTheHomeCache() throws {
        var rooms = MatrixAccountRooms(account: me)
        rooms.apply(sync: answer([marked("$post", "Kept", ts: 1_000)], "s1"))
        let copy = try JSONDecoder().decode(MatrixAccountRooms.self, from: JSONEncoder().encode(rooms))
        XCTAssertEqual(postRows(copy).map(\.name), ["Kept"])
    }
}
