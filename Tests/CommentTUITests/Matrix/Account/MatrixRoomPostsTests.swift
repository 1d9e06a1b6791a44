import XCTest
@testable import CommentTUI
import ThreadModel

/// A page of a room's `/threads` read into home's post rows: the newest few, the rest counted,
/// hostile values bounded; the rows carry their own counts.
final class MatrixRoomPostsTests: XCTestCase {
    private func root(_ id: String, body: JSONValue = "a post\nsecond line", ts: Double, replies: JSONValue = 2, latest: Double? = nil) -> JSONValue {
        var event: [String: JSONValue] = ["event_id": .string(id), "sender": "@bo:h.org", "origin_server_ts": .number(ts),
                                          "type": "m.room.message", "content": ["msgtype": "m.text", "body": body]]
        if let latest {
            event["unsigned"] = ["m.relations": ["m.thread": [
                "count": replies, "current_user_participated": false,
                "latest_event": ["event_id": .string(id + "-r"), "sender": "@cy:h.org", "origin_server_ts": .number(latest),
                                 "content": ["msgtype": "m.text", "body": "the newest reply"]],
            ]]]
        }
        return .object(event)
    }

    func testTheNewestFewAreListedAndTheRestCounted() {
        let roots = (1...10).map { root("$p\($0)", ts: Double($0) * 1000, latest: Double($0) * 1000 + 500) }
        let posts = MatrixRoomPosts(roots: roots.shuffled(), next: nil, limits: .init())
        XCTAssertEqual(posts.posts.map(\.root), ["$p10", "$p9", "$p8"], "newest activity first, whatever the order given")
        XCTAssertEqual(posts.more, 7)
        XCTAssertFalse(posts.moreBeyond)
        XCTAssertEqual(posts.posts[0].title, "a post")
        XCTAssertEqual(posts.posts[0].latestSender, "@cy:h.org")
        XCTAssertEqual(posts.posts[0].latestBody, "the newest reply")
        XCTAssertTrue(MatrixRoomPosts(roots: roots, next: "t", limits: .init()).moreBeyond, "the server has more past the page")
        // A thousand roots cost what fifty do.
        let many = (1...1000).map { root("$m\($0)", ts: Double($0), latest: Double($0)) }
        XCTAssertEqual(MatrixRoomPosts(roots: many, next: "t", limits: .init()).more, MatrixRoomPosts.asked - MatrixRoomPosts.shown)
    }

    func testHostileRootsAreBoundedOrLeftOut() {
        let posts = MatrixRoomPosts(roots: [
            root("$long", body: .string(String(repeating: "x", count: 100_000)), ts: 5, replies: .number(1e300), latest: 6),
            root("$neg", body: "   \n  spaced  ", ts: 4, replies: -3, latest: 5),
            root("no-dollar", ts: 3), .string("not an event"),
            root("$none", body: 7, ts: 2),
        ], next: nil, limits: .init())
        XCTAssertEqual(posts.posts.map(\.root), ["$long", "$neg", "$none"])
        XCTAssertLessThanOrEqual(posts.posts[0].title.utf8.count, MatrixAccountRooms.Limits().nameBytes)
        XCTAssertEqual(posts.posts[0].replies, MatrixThreadSummaries.mostReplies)
        XCTAssertEqual(posts.posts[1].replies, 0)
        XCTAssertEqual(posts.posts[1].title, "spaced")
        XCTAssertEqual(posts.posts[2].title, "(post)", "a root with no text")
        XCTAssertEqual(posts.posts[2].latestSender, "@bo:h.org", "no replies bundled: the root is the newest")
    }

    /// The rows go under their room's with the server's per-post counts; the room's own row
    /// counts its posts' too.
    func testRowsCarryTheirCountsAndTheRoomsRowSumsThem() {
        var rooms = MatrixAccountRooms(account: "@ann:h.org")
        rooms.apply(sync: ["next_batch": "s1", "rooms": ["join": ["!r:h.org": [
            "timeline": ["events": []],
            "unread_notifications": ["notification_count": 1, "highlight_count": 0],
            "unread_thread_notifications": ["$p2": ["notification_count": 2, "highlight_count": 1], "$bad": ["notification_count": -1]],
        ]]]])
        XCTAssertTrue(rooms.setPosts(roomID: "!r:h.org", MatrixRoomPosts(roots: [root("$p1", ts: 1, latest: 2), root("$p2", ts: 3, latest: 4)],
                                                                          next: nil, limits: .init())))
        XCTAssertFalse(rooms.setPosts(roomID: "!unknown:h.org", MatrixRoomPosts(roots: [], next: nil, limits: .init())))
        let rows = Dictionary(uniqueKeysWithValues: rooms.summaries.map { ($0.key, $0) })
        let room = rows[.room(account: "@ann:h.org", roomID: "!r:h.org")]
        XCTAssertEqual([room?.unread, room?.highlights], [3, 1], "its own and its posts'")
        let p2 = rows[.post(account: "@ann:h.org", roomID: "!r:h.org", root: "$p2")]
        XCTAssertEqual([p2?.unread, p2?.highlights, p2?.replies], [2, 1, 2])
        XCTAssertEqual(rows[.post(account: "@ann:h.org", roomID: "!r:h.org", root: "$p1")]?.unread, 0)
    }

    /// Home's cache keeps a room's posts and their counts: home lists them at the next start
    /// with no request.
    func testHomesCacheKeepsThePostsAndTheirCounts() throws {
        var rooms = MatrixAccountRooms(account: "@ann:h.org")
        rooms.apply(sync: ["next_batch": "s1", "rooms": ["join": ["!r:h.org": [
            "timeline": ["events": []], "unread_notifications": ["notification_count": 0, "highlight_count": 0],
            "unread_thread_notifications": ["$p1": ["notification_count": 1, "highlight_count": 0]],
        ]]]])
        rooms.setPosts(roomID: "!r:h.org", MatrixRoomPosts(roots: [root("$p1", ts: 1, latest: 2)], next: nil, limits: .init()))
        let folder = NSTemporaryDirectory() + "home-posts-\(UUID().uuidString)"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        let cache = try XCTUnwrap(HomeCache(account: "@ann:h.org", environment: ["XDG_CACHE_HOME": folder]))
        try cache.save(.init(rooms: rooms, nextBatch: "s1"))
        let loaded = try XCTUnwrap(try cache.load())
        XCTAssertEqual(loaded.rooms.summaries, rooms.summaries)
        XCTAssertEqual(loaded.rooms.summaries.first { $0.key.postRoom != nil }?.unread, 1)
    }
}
