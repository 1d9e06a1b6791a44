import XCTest
import ThreadModel
@testable import CommentTUI

/// The offline copy keeps a redacted comment's flag (`deleted`, written only when true): read
/// back it is deleted, while a comment whose text merely says "(deleted)" stays ordinary.
final class MatrixRoomCacheDeletedTests: XCTestCase {
    func testARedactedCommentReadsBackDeletedAndOneThatSaysSoDoesNot() throws {
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("cache-deleted-\(UUID().uuidString)").path
        addTeardownBlock { try? FileManager.default.removeItem(atPath: home) }
        let address = try XCTUnwrap(MatrixRoomAddress(locator: "matrix:!room:h.org"))
        let cache = try XCTUnwrap(MatrixRoomCache(me: "@ann:h.org", address: address, environment: ["XDG_CACHE_HOME": home]))
        let snapshot = MatrixRoomCache.Snapshot(
            roomID: "!room:h.org", label: "room", header: ThreadHeader(id: "!room:h.org", title: "Room", author: "bo", created: at, body: ""),
            postEventID: nil, users: [User(id: "@bo:h.org", handle: "bo", name: "Bo")],
            comments: [Comment(id: "$a", author: "bo", created: at, body: "(deleted)", isDeleted: true),
                       Comment(id: "$b", author: "bo", created: at, body: "(deleted)")],
            olderToken: nil, nextBatch: "s1", fullyRead: nil)
        try cache.save(snapshot)
        XCTAssertEqual(cache.load()?.comments.map(\.isDeleted), [true, false])
        let text = try String(contentsOfFile: cache.path, encoding: .utf8)
        XCTAssertEqual(text.components(separatedBy: #""deleted":true"#).count - 1, 1, "written only for the redacted one")
    }

    func testACopyFromBeforeTheFlagTakesAnUneditedDeletedBodyForARedaction() throws {
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("cache-deleted-\(UUID().uuidString)").path
        addTeardownBlock { try? FileManager.default.removeItem(atPath: home) }
        let address = try XCTUnwrap(MatrixRoomAddress(locator: "matrix:!room:h.org"))
        let cache = try XCTUnwrap(MatrixRoomCache(me: "@ann:h.org", address: address, environment: ["XDG_CACHE_HOME": home]))
        let snapshot = MatrixRoomCache.Snapshot(
            roomID: "!room:h.org", label: "room", header: ThreadHeader(id: "!room:h.org", title: "Room", author: "bo", created: at, body: ""),
            postEventID: nil, users: [User(id: "@bo:h.org", handle: "bo", name: "Bo")],
            comments: [Comment(id: "$a", author: "bo", created: at, body: "(deleted)", isDeleted: true),
                       Comment(id: "$b", author: "bo", created: at, body: "(deleted)", edited: at + 5),
                       Comment(id: "$c", author: "bo", created: at, body: "hello")],
            olderToken: nil, nextBatch: "s1", fullyRead: nil)
        try cache.save(snapshot)
        // As an earlier build wrote it: neither the room's mark nor a comment's flag.
        let text = try String(contentsOfFile: cache.path, encoding: .utf8)
        XCTAssertTrue(text.contains(#""marks_deleted":true"#))
        let older = text.replacingOccurrences(of: #""marks_deleted":true,"#, with: "").replacingOccurrences(of: #""deleted":true,"#, with: "")
        XCTAssertFalse(older.contains("deleted\":true"), older)
        try older.write(toFile: cache.path, atomically: false, encoding: .utf8)
        XCTAssertEqual(cache.load()?.comments.map(\.isDeleted), [true, false, false], "the edited one was typed so")
    }
}
