import XCTest
import ThreadModel
@testable import CommentTUI

/// The offline copy keeps a root's post summary in its comment's record, so a room opened
/// offline shows its roots summed up as they were; a hostile count in a copy is clamped.
final class MatrixRoomCachePostTests: XCTestCase {
    private let at = Date(timeIntervalSince1970: 1_800_000_000)

    private func cache() throws -> MatrixRoomCache {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("cache-posts-\(UUID().uuidString)").path
        addTeardownBlock { try? FileManager.default.removeItem(atPath: home) }
        let address = try XCTUnwrap(MatrixRoomAddress(locator: "matrix:!room:h.org"))
        return try XCTUnwrap(MatrixRoomCache(me: "@ann:h.org", address: address, environment: ["XDG_CACHE_HOME": home]))
    }

    private func snapshot() -> MatrixRoomCache.Snapshot {
        var snapshot = MatrixRoomCache.Snapshot(
            roomID: "!room:h.org", label: "room", header: ThreadHeader(id: "!room:h.org", title: "Room", author: "bo", created: at, body: ""),
            postEventID: nil, users: [User(id: "@bo:h.org", handle: "bo", name: "Bo")],
            comments: [Comment(id: "$a", author: "@bo:h.org", created: at, body: "a root"), Comment(id: "$b", author: "@bo:h.org", created: at, body: "plain")],
            olderToken: nil, nextBatch: "s1", fullyRead: nil)
        snapshot.posts = ["$a": MatrixThreadSummaries.Entry(count: 4, latestEventID: "$r4", latestSender: "@bo:h.org", latestAt: at)]
        return snapshot
    }

    func testARootsSummaryIsKeptAndOpensOfflineWithIt() throws {
        let cache = try cache()
        try cache.save(snapshot())
        let loaded = try XCTUnwrap(cache.load())
        XCTAssertEqual(loaded.posts, snapshot().posts)
        let opening = MatrixRoomOpening(snapshot: loaded, me: "@ann:h.org", pageSize: 50)
        let updates = opening.timeline.allPostSummaryUpdates()
        XCTAssertEqual(updates.map(describe), ["post $a 4 @bo:h.org"])
    }

    /// A root whose replies are all gone (count 0) writes no post record: a record means replies.
    func testAPostWithNoRepliesIsNotWritten() throws {
        let cache = try cache()
        var emptied = snapshot()
        emptied.posts["$b"] = MatrixThreadSummaries.Entry(count: 0, latestEventID: "$gone", latestSender: "@bo:h.org", latestAt: at)
        try cache.save(emptied)
        XCTAssertFalse(try String(contentsOfFile: cache.path, encoding: .utf8).contains("$gone"))
        XCTAssertEqual(try XCTUnwrap(cache.load()).posts, snapshot().posts)
    }

    func testAHostileCountInACopyIsClamped() throws {
        let cache = try cache()
        try cache.save(snapshot())
        let text = try String(contentsOfFile: cache.path, encoding: .utf8).replacingOccurrences(of: "\"count\":4", with: "\"count\":-9")
        try text.write(toFile: cache.path, atomically: true, encoding: .utf8)
        XCTAssertEqual(try XCTUnwrap(cache.load()).posts["$a"]?.count, 0)
    }
}
