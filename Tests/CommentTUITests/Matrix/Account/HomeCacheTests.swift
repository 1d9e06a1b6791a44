import Foundation
import XCTest
import ThreadModel
import PlantedFileTestSupport
@testable import CommentTUI

/// The home cache: an account's rooms and sync token kept between runs, read with no request;
/// anything but this version's cache of this account is refused, never trusted or followed.
final class HomeCacheTests: XCTestCase {
    private let me = "@ann:a.org"
    private typealias S = SyncAnswer

    private func environment() throws -> [String: String] {
        let directory = try temporaryDirectory(self)
        return ["XDG_CACHE_HOME": directory.appendingPathComponent("cache").path, "HOME": "/nonexistent"]
    }

    private func rooms() -> MatrixAccountRooms {
        var rooms = MatrixAccountRooms(account: me)
        rooms.apply(sync: S.answer(join: [
            "!dm:a.org": S.joined(summary: ["m.heroes": ["@cy:b.org"], "m.joined_member_count": 2],
                                  state: [S.member("@cy:b.org", "Cy")],
                                  timeline: [S.message("$2", from: "@cy:b.org", "psst", ts: 2_000_000)],
                                  ephemeral: [["type": "m.typing", "content": ["user_ids": ["@cy:b.org"]]]],
                                  counts: S.counts(3, 1)),
        ], invite: ["!inv:a.org": [S.member(me, nil, membership: "invite", sender: "@di:a.org", ts: 3_000_000)]],
        accountData: [["type": "m.direct", "content": ["@cy:b.org": ["!dm:a.org"]]]]))
        return rooms
    }

    func testTheRoomsAndTokenComeBackWithNoRequestAndResumeIncrementalSyncs() throws {
        let cache = try XCTUnwrap(HomeCache(account: me, environment: try environment()))
        XCTAssertNil(try cache.load(), "no cache yet is no error")
        try cache.save(.init(rooms: rooms(), nextBatch: "s72_1"))
        var status = stat()
        XCTAssertEqual(lstat(cache.path, &status), 0)
        XCTAssertEqual(status.st_mode & 0o777, 0o600)
        XCTAssertTrue(cache.path.hasSuffix(".json") && cache.path.contains("/comment-tui/matrix/home-"), cache.path)

        var loaded = try XCTUnwrap(try cache.load())
        XCTAssertEqual(loaded.nextBatch, "s72_1")
        var expected = rooms().summaries
        expected[expected.firstIndex { $0.name == "Cy" }!].typing = []
        XCTAssertEqual(loaded.summaries, expected, "the same rows, but no one typing: that is stale by the next start")
        XCTAssertEqual(loaded.summaries.first { $0.name == "Cy" }.map { [$0.unread, $0.highlights] }, [3, 1])
        // The next incremental answer carries only a new message: the rest came from the cache.
        loaded.rooms.apply(sync: S.answer(join: ["!dm:a.org": S.joined(
            timeline: [S.message("$3", from: "@cy:b.org", "again", ts: 4_000_000)], counts: S.counts(4, nil))]))
        let dm = try XCTUnwrap(loaded.rooms.summary(roomID: "!dm:a.org"))
        XCTAssertEqual([dm.name, dm.author, dm.preview], ["Cy", "Cy", "again"])
        XCTAssertEqual([dm.unread, dm.highlights], [4, 1])
        XCTAssertTrue(dm.isDirect)
    }

    func testAMalformedCacheIsRefusedSayingWhyAndTheNextSaveReplacesIt() throws {
        let cache = try XCTUnwrap(HomeCache(account: me, environment: try environment()))
        try cache.save(.init(rooms: rooms(), nextBatch: "s1"))
        let folder = try PrivateDirectory(cache.directory)
        let cases: [(String, String)] = [
            ("{\"version\": 1, \"account\": \"@ann:a.org\", \"next_batch\": \"s1\", \"rooms\": 5", "is not JSON of a home cache"),
            ("[1, 2, 3]", "is not JSON of a home cache"),
            ("{\"rooms\": {}}", "has no version: it is no home cache of comment-tui"),
            ("{\"version\": 2, \"account\": \"@ann:a.org\"}", "is a home cache of version 2; this comment-tui reads version 1"),
            ("{\"version\": 1, \"account\": \"@eve:evil.org\", \"next_batch\": \"s1\", \"rooms\": {}}",
             "is the home cache of another account, not @ann:a.org"),
            ("{\"version\": 1, \"account\": \"@ann:a.org\", \"next_batch\": \"s1\", \"rooms\": {\"account\": 3}}",
             "does not read as a home cache of version 1"),
            ("{\"version\": 1, \"account\": \"@ann:a.org\", \"next_batch\": \"s 1\\n\", \"rooms\": {\"account\": \"@ann:a.org\", "
                + "\"limits\": {}, \"rooms\": {}, \"directRooms\": []}}", "does not read as a home cache of version 1"),
        ]
        for (text, why) in cases {
            try folder.replace(cache.name, with: Array(text.utf8), synchronized: false)
            XCTAssertThrowsError(try cache.load(), text) { error in
                XCTAssertEqual("\(error)", "\(cache.path) \(why); home starts from the server instead", text)
            }
        }
        try cache.save(.init(rooms: rooms(), nextBatch: "s2"))
        XCTAssertEqual(try cache.load()?.nextBatch, "s2", "the account is not lost: the next save writes a good cache")
    }

    func testAPlantedLinkIsRefusedAndReplacedNeverFollowed() throws {
        let environment = try environment()
        let cache = try XCTUnwrap(HomeCache(account: me, environment: environment))
        let victim = try PlantedVictim(at: try temporaryDirectory(self).appendingPathComponent("victim").path)
        try victim.plantLink(at: cache.path)
        XCTAssertThrowsError(try cache.load()) { error in
            XCTAssertTrue("\(error)".contains("is a symbolic link; comment-tui never follows a link"), "\(error)")
        }
        try cache.save(.init(rooms: rooms(), nextBatch: "s3"))
        try victim.assertUntouched()
        XCTAssertEqual(try cache.load()?.nextBatch, "s3")
    }

    func testEachAccountHasItsOwnCache() throws {
        let environment = try environment()
        let ann = try XCTUnwrap(HomeCache(account: me, environment: environment))
        let bo = try XCTUnwrap(HomeCache(account: "@bo:a.org", environment: environment))
        XCTAssertNotEqual(ann.path, bo.path)
        try ann.save(.init(rooms: rooms(), nextBatch: "s1"))
        XCTAssertNil(try bo.load())
        XCTAssertNil(HomeCache(account: me, environment: ["HOME": "relative"]), "no cache directory: no cache")
    }
}
