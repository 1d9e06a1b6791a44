import XCTest
import ThreadModel
@testable import CommentTUI

/// The offline copy's records across builds: reactions ride in their comment's record (a build
/// that does not know them reads the copy), and a record type this build does not know (a
/// newer build's) is skipped, not taken for a broken copy.
final class MatrixRoomCacheRecordTests: XCTestCase {
    private let at = Date(timeIntervalSince1970: 1_800_000_000)

    private func cache() throws -> MatrixRoomCache {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("cache-records-\(UUID().uuidString)").path
        addTeardownBlock { try? FileManager.default.removeItem(atPath: home) }
        let address = try XCTUnwrap(MatrixRoomAddress(locator: "matrix:!room:h.org"))
        return try XCTUnwrap(MatrixRoomCache(me: "@ann:h.org", address: address, environment: ["XDG_CACHE_HOME": home]))
    }

    private func snapshot() -> MatrixRoomCache.Snapshot {
        var snapshot = MatrixRoomCache.Snapshot(
            roomID: "!room:h.org", label: "room", header: ThreadHeader(id: "!room:h.org", title: "Room", author: "bo", created: at, body: ""),
            postEventID: nil, users: [User(id: "@bo:h.org", handle: "bo", name: "Bo")],
            comments: [Comment(id: "$a", author: "bo", created: at, body: "hello"), Comment(id: "$b", author: "bo", created: at, body: "again")],
            olderToken: nil, nextBatch: "s1", fullyRead: nil)
        snapshot.reactions = ["$r1": MatrixReactions.Reaction(target: "$a", key: "👍", sender: "@bo:h.org", at: at),
                              "$r2": MatrixReactions.Reaction(target: "$a", key: "🎉", sender: "@ann:h.org", at: at)]
        return snapshot
    }

    private func records(_ cache: MatrixRoomCache) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: cache.path, encoding: .utf8)
        return try text.split(separator: "\n").map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    func testReactionsAreKeptInTheirCommentsRecordSoABuildWithoutThemReadsTheCopy() throws {
        let cache = try cache()
        try cache.save(snapshot())
        let records = try records(cache)
        // What a build from before reactions knows: these three types, and nothing else.
        XCTAssertEqual(Set(records.compactMap { $0["type"] as? String }), ["room", "user", "comment"])
        let first = try XCTUnwrap(records.first { $0["id"] as? String == "$a" }?["reactions"] as? [[String: Any]])
        XCTAssertEqual(first.compactMap { $0["id"] as? String }, ["$r1", "$r2"])
        XCTAssertNil(records.first { $0["id"] as? String == "$b" }?["reactions"], "none written for a comment without")
        XCTAssertEqual(cache.load(), snapshot(), "read back whole")
    }

    func testARecordOfATypeNotKnownHereIsSkippedAndTheCopyStillReads() throws {
        let cache = try cache()
        try cache.save(snapshot())
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: cache.path))
        handle.seekToEndOfFile()
        handle.write(Data((#"{"type":"poll","id":"$p","question":"later?"}"# + "\n").utf8))
        handle.closeFile()
        XCTAssertEqual(cache.load(), snapshot(), "the newer build's record skipped")
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache.path), "not moved aside")
    }
}
