import Foundation
import XCTest
@testable import ThreadModel

/// Deletion is a flag its `delete` record sets, not a body: a comment whose text merely says
/// "(deleted)" is an ordinary comment (its author edits it, people react to it), and an export
/// of a deleted comment reads back deleted.
final class DeletedFlagRecordTests: XCTestCase {
    static let start = RecordFileFixture.start

    private static let saysDeleted: [ThreadRecord] = RecordFileFixture.head + [
        .comment(Comment(id: "c1", author: "u1", created: start, body: "(deleted)")),
        .comment(Comment(id: "c2", author: "u2", created: start, body: "(deleted)")),
        .change(CommentChange(comment: "c1", author: "u1", created: start + 60, kind: .edit(body: "fixed"))),
        .reaction(ReactionChange(comment: "c2", author: "u1", created: start + 60, key: "👍")),
    ]

    func testACommentThatSaysDeletedIsOrdinaryInTheReadAndTheIndex() throws {
        let path = try recordFile(Self.saysDeleted)
        let read = try ThreadFile.read(path: path)
        XCTAssertEqual(read.problems, [])
        XCTAssertEqual(read.thread.comments.map(\.body), ["fixed", "(deleted)"], "its author's edit counts")
        XCTAssertEqual(read.thread.comments.map(\.isDeleted), [false, false])
        XCTAssertEqual(read.thread.reactions.counts(of: "c2", me: ""), [ReactionCount(key: "👍", count: 1, includesMine: false)])

        let index = try ThreadIndex.open(path: path)
        XCTAssertEqual(try index.comment(at: 0).get().body, "fixed")
        XCTAssertFalse(try index.comment(at: 1).get().isDeleted)
        XCTAssertTrue(index.changeProblems.isEmpty, "\(index.changeProblems)")
    }

    func testADeleteRecordSetsTheFlagAndAnExportReadsBackAsItWas() throws {
        let path = try recordFile(Self.saysDeleted + [.change(CommentChange(comment: "c2", author: "u2", created: Self.start + 90, kind: .delete))])
        let read = try ThreadFile.read(path: path)
        XCTAssertEqual(read.thread.comments.map(\.isDeleted), [false, true])
        XCTAssertEqual(read.thread.comments.map(\.body), ["fixed", "(deleted)"])

        let exported = try recordFile(ThreadRecord.records(of: read.thread))
        let again = try ThreadFile.read(path: exported)
        XCTAssertEqual(again.problems, [])
        XCTAssertEqual(again.thread.comments.map(\.isDeleted), [false, true])
        XCTAssertEqual(again.thread.comments.map(\.body), ["fixed", "(deleted)"])
        XCTAssertEqual(ThreadRecord.records(of: again.thread), ThreadRecord.records(of: read.thread), "canonical: the same again")
    }
}
