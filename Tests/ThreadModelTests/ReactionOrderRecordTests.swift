import Foundation
import XCTest
@testable import ThreadModel

/// A reaction counts only after its comment's line, as an edit does: one before it (or naming a
/// comment the file never holds) is named by `check` with its line and counted by no reader,
/// neither the full read nor the index the client opens with.
final class ReactionOrderRecordTests: XCTestCase {
    static let start = RecordFileFixture.start

    private static let head: [ThreadRecord] = RecordFileFixture.head + [
        .comment(Comment(id: "c1", author: "u1", created: start, body: "first")),
    ]

    private static func react(_ id: String, by author: String, _ key: String, removes: Bool = false) -> ThreadRecord {
        .reaction(ReactionChange(comment: id, author: author, created: start + 60, key: key, removes: removes))
    }

    private static func comment(_ id: String) -> ThreadRecord {
        .comment(Comment(id: id, author: "u2", created: start + 30, body: "body of \(id)"))
    }

    /// Line 5 reacts to c2, whose line is 6; line 7 reacts after it.
    private static let reactedBefore = head + [react("c2", by: "u1", "👍"), comment("c2"), react("c2", by: "u2", "🎉")]

    func testAReactionBeforeItsCommentIsNamedWithItsLineAndNotCounted() throws {
        let read = try ThreadFile.read(path: try recordFile(Self.reactedBefore))
        XCTAssertEqual(read.problems, [ThreadFileProblem(line: 5, message: #"react of comment "c2": reaction before its comment (line 6), ignored"#)])
        XCTAssertEqual(read.thread.reactions.counts(of: "c2", me: "u1"), [ReactionCount(key: "🎉", count: 1, includesMine: false)])
    }

    func testTheIndexDoesNotCountAReactionBeforeItsComment() throws {
        let index = try ThreadIndex.open(path: try recordFile(Self.reactedBefore))
        XCTAssertEqual(index.reactions.counts(of: "c2", me: "u1"), [ReactionCount(key: "🎉", count: 1, includesMine: false)])
    }

    func testAReactionBeforeASecondCommentWithTheIDStillCounts() throws {
        // c1 is on line 4: the comment on line 6 with its id is the one `check` names, and skips.
        let path = try recordFile(Self.head + [Self.react("c1", by: "u2", "👍"), Self.comment("c1"), Self.react("c1", by: "u1", "🎉")])
        let counts = [ReactionCount(key: "👍", count: 1, includesMine: false), ReactionCount(key: "🎉", count: 1, includesMine: true)]
        XCTAssertEqual(try ThreadIndex.open(path: path).reactions.counts(of: "c1", me: "u1"), counts)
        let read = try ThreadFile.read(path: path)
        XCTAssertEqual(read.thread.reactions.counts(of: "c1", me: "u1"), counts)
        XCTAssertEqual(read.problems.map(\.line), [6], "only the second comment with the id: \(read.problems)")
    }

    func testACommentInAnotherShapeAfterReactionsToItsIDStartsItsCountAfresh() throws {
        // Fields in another order; the canonical order with an escaped id: the index decodes both.
        for other in [#"{"created":"2025-04-17T10:00:30Z","body":"x","type":"comment","author":"u2","id":"c2"}"#,
                      #"{"type":"comment","id":"c\u0032","author":"u2","created":"2025-04-17T10:00:30Z","body":"x"}"#] {
            let path = try recordFile(Self.head + [Self.react("c2", by: "u1", "👍")])
            let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
            handle.seekToEndOfFile()
            handle.write(Data((other + "\n").utf8))
            handle.closeFile()
            XCTAssertTrue(try ThreadIndex.open(path: path).reactions.counts(of: "c2", me: "").isEmpty, other)
            XCTAssertEqual(try ThreadFile.read(path: path).problems.map(\.line), [5], other)
        }
    }

    func testCountingStreamsRecordsAndNamesEachWrongOne() {
        var counting = ReactionTally.Counting(commentLines: ["c1": 4, "c2": 9], isKnownUser: { $0 != "u7" })
        counting.take(ReactionChange(comment: "c2", author: "u1", created: Self.start, key: "👍"), line: 5)
        counting.take(ReactionChange(comment: "c9", author: "u1", created: Self.start, key: "👍"), line: 6)
        counting.take(ReactionChange(comment: "c1", author: "u7", created: Self.start, key: "👍"), line: 7)
        counting.take(ReactionChange(comment: "c2", author: "u1", created: Self.start, key: "🎉"), line: 10)
        let counted = counting.finish(deleted: [])
        XCTAssertEqual(counted.problems.map(\.line), [5, 6, 7])
        XCTAssertEqual(counted.problems.map(\.message), [
            #"react of comment "c2": reaction before its comment (line 9), ignored"#,
            #"react of comment "c9", which the file does not hold, ignored"#,
            #"react by unknown user "u7" (no user record with that id)"#,
        ])
        XCTAssertEqual(counted.tally.counts(of: "c2", me: "u1"), [ReactionCount(key: "🎉", count: 1, includesMine: true)])
        XCTAssertEqual(counted.tally.counts(of: "c1", me: "").map(\.count), [1], "an unknown user's reaction counts, named")
    }
}
