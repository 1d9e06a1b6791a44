import Foundation
import XCTest
@testable import ThreadModel

/// The index tells whether a reaction's comment came before it from the ids of the comment lines
/// read so far (`CommentIDHashes`), not by reading earlier lines back: a hostile file of
/// "react c_i; comment c_i" pairs opens in one pass, and reactions to comments the file never
/// holds are dropped as they are read instead of counted for the file's life.
final class ReactionHashIndexTests: XCTestCase {
    static let start = RecordFileFixture.start

    private static func react(_ id: String, by author: String = "u1", _ key: String = "👍") -> ThreadRecord {
        .reaction(ReactionChange(comment: id, author: author, created: start + 60, key: key))
    }

    private static func comment(_ id: String) -> ThreadRecord {
        .comment(Comment(id: id, author: "u2", created: start + 30, body: "body of \(id)"))
    }

    func testTwentyThousandReactionsEachBeforeItsCommentOpenWithTheRightCounts() throws {
        var records = RecordFileFixture.head
        for n in 0..<20_000 { records += [Self.react("c\(n)"), Self.comment("c\(n)")] }
        // After all of them, one reaction that counts to every 1,000th comment.
        for n in stride(from: 0, to: 20_000, by: 1000) { records.append(Self.react("c\(n)", by: "u2", "🎉")) }
        let index = try ThreadIndex.open(path: try recordFile(records))
        XCTAssertEqual(index.commentCount, 20_000)
        XCTAssertEqual(index.reactions.commentIDs.sorted(), stride(from: 0, to: 20_000, by: 1000).map { "c\($0)" }.sorted())
        XCTAssertEqual(index.reactions.counts(of: "c7000", me: "u2"), [ReactionCount(key: "🎉", count: 1, includesMine: true)])
        XCTAssertTrue(index.reactions.counts(of: "c7001", me: "u2").isEmpty, "its only reaction came before it")
    }

    func testReactionsToCommentsTheFileNeverHoldsAreNotKept() throws {
        var records = RecordFileFixture.head + [Self.comment("c1"), Self.react("c1")]
        for n in 0..<2_000 { records.append(Self.react("missing\(n)")) }
        let index = try ThreadIndex.open(path: try recordFile(records))
        XCTAssertEqual(index.reactions.commentIDs.count, 1, "only the comment the file holds")
        XCTAssertTrue(index.reactions.holds("c1"))
    }

    func testAFirstReactionAfterCommentsOfEveryShapeFindsThem() throws {
        // The comments come before any reaction: their ids are read back when the first one comes.
        let path = try recordFile(RecordFileFixture.head + [Self.comment("c1")])
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"created":"2025-04-17T10:00:30Z","body":"x","type":"comment","author":"u2","id":"c2"}"#.utf8 + [10]))
        handle.write(Data(#"{"type":"comment","id":"c\u0033","author":"u2","created":"2025-04-17T10:00:30Z","body":"x"}"#.utf8 + [10]))
        var tail: [UInt8] = []
        let encoder = ThreadRecordEncoder()
        for id in ["c1", "c2", "c3", "c4"] { encoder.append(Self.react(id), to: &tail) }
        handle.write(Data(tail))
        handle.closeFile()
        let index = try ThreadIndex.open(path: path)
        XCTAssertEqual(index.reactions.commentIDs.sorted(), ["c1", "c2", "c3"])
        XCTAssertTrue(index.containsComment(id: "c3"))
        XCTAssertFalse(index.containsComment(id: "c4"))
    }
}
