import Foundation
import XCTest
import ThreadModel
@testable import CommentTUI

/// An export from before deletions were records holds a deleted comment as its line with the
/// deleted body and no `delete` record: `import` takes it for deleted (left out, and said on
/// stderr) instead of posting "(deleted)" into the room.
final class OlderExportDeletionsTests: XCTestCase {
    func testAnOlderExportsDeletedCommentIsMarkedDeletedAndCounted() throws {
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let path = NSTemporaryDirectory() + "older-export-\(UUID().uuidString).jsonl"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        var bytes: [UInt8] = []
        let encoder = ThreadRecordEncoder()
        let records: [ThreadRecord] = [
            .thread(ThreadHeader(id: "t", title: "Old", author: "u1", created: at, body: "post")),
            .user(User(id: "u1", handle: "ann", name: "Ann")),
            .comment(Comment(id: "c1", author: "u1", created: at, body: "(deleted)")),
            .comment(Comment(id: "c2", author: "u1", created: at, body: "kept")),
            .reaction(ReactionChange(comment: "c2", author: "u1", created: at, key: "👍")),
        ]
        for record in records { encoder.append(record, to: &bytes) }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let file = try ThreadFile.read(path: path)
        XCTAssertEqual(file.thread.comments.map(\.isDeleted), [false, false], "read as it is: a comment saying \"(deleted)\"")
        let (thread, count) = OlderExportDeletions.marked(in: file.thread)
        XCTAssertEqual(count, 1)
        XCTAssertEqual(thread.comments.map(\.isDeleted), [true, false])
        XCTAssertEqual(thread.comments.map(\.id), ["c1", "c2"])
        XCTAssertEqual(thread.users, file.thread.users)
        XCTAssertEqual(thread.reactions.counts(of: "c2", me: "").map(\.count), [1], "reactions kept")
        XCTAssertTrue(OlderExportDeletions.note(count).contains("1 comment"), OlderExportDeletions.note(count))
    }

    func testACurrentExportsDeletedCommentIsNotCountedAgain() {
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let thread = CommentThread(id: "t", title: "New", author: "u1", created: at, body: "",
                                   comments: [Comment(id: "c1", author: "u1", created: at, body: "(deleted)", isDeleted: true)])
        XCTAssertEqual(OlderExportDeletions.marked(in: thread).count, 0)
    }
}
