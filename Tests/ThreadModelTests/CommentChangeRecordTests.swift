import Foundation
import XCTest
@testable import ThreadModel

/// Edits and deletions in a thread file: appended records (`edit`, `delete`) in the canonical
/// shape, read by the reader (`check`) and the index (the client, `render`); only the author's count.
final class CommentChangeRecordTests: XCTestCase {
    static let start = Date(timeIntervalSince1970: 1_744_884_000)

    private func file(_ records: [ThreadRecord]) throws -> String { try recordFile(records) }

    private static let base: [ThreadRecord] = [
        .thread(ThreadHeader(id: "t", title: "T", author: "u1", created: start, body: "post")),
        .user(User(id: "u1", handle: "ann", name: "Ann")),
        .user(User(id: "u2", handle: "bo", name: "Bo")),
        .comment(Comment(id: "c1", author: "u1", created: start, body: "teh typo @bo")),
        .comment(Comment(id: "c2", author: "u2", created: start, body: "bo's words")),
    ]

    private static func edit(_ id: String, by author: String, _ body: String, at seconds: Double = 60) -> ThreadRecord {
        .change(CommentChange(comment: id, author: author, created: start + seconds, kind: .edit(body: body)))
    }

    private static func delete(_ id: String, by author: String, at seconds: Double = 120) -> ThreadRecord {
        .change(CommentChange(comment: id, author: author, created: start + seconds, kind: .delete))
    }

    func testRecordsAreCanonicalAndReadBack() {
        let encoder = ThreadRecordEncoder()
        let edit = String(decoding: encoder.encode(Self.edit("c1", by: "u1", "the \"fix\"")), as: UTF8.self)
        XCTAssertEqual(edit, #"{"type":"edit","comment":"c1","author":"u1","created":"2025-04-17T10:01:00Z","body":"the \"fix\""}"# + "\n")
        let delete = String(decoding: encoder.encode(Self.delete("c1", by: "u1")), as: UTF8.self)
        XCTAssertEqual(delete, #"{"type":"delete","comment":"c1","author":"u1","created":"2025-04-17T10:02:00Z"}"# + "\n")
        let decoder = ThreadRecordDecoder()
        XCTAssertEqual(decoder.decode(Array(edit.utf8.dropLast())[...]), .record(Self.edit("c1", by: "u1", "the \"fix\"")))
        XCTAssertEqual(decoder.decode(Array(delete.utf8.dropLast())[...]), .record(Self.delete("c1", by: "u1")))
        // An edit needs its body; a change needs the comment it changes.
        guard case .malformed = decoder.decode(Array(#"{"type":"edit","comment":"c1","author":"u1","created":"2025-04-17T10:01:00Z"}"#.utf8)[...]),
              case .malformed = decoder.decode(Array(#"{"type":"delete","author":"u1","created":"2025-04-17T10:01:00Z"}"#.utf8)[...]) else {
            return XCTFail("an edit without a body, a deletion without a comment, are malformed")
        }
    }

    func testTheReaderShowsTheAuthorsEditAndDeletionAndReportsOthers() throws {
        let path = try file(Self.base + [
            Self.edit("c1", by: "u1", "the typo fixed @bo"),
            Self.edit("c2", by: "u1", "ann rewrites bo"),
            Self.delete("c2", by: "u2"),
            Self.edit("c2", by: "u2", "too late"),
            Self.edit("c9", by: "u1", "no such comment"),
        ])
        let read = try ThreadFile.read(path: path)
        let comments = read.thread.comments
        XCTAssertEqual(comments.map(\.body), ["the typo fixed @bo", "(deleted)"])
        XCTAssertEqual(comments[0].edited, Self.start + 60)
        XCTAssertTrue(comments[1].isDeleted)
        XCTAssertEqual(read.problems.map(\.line), [7, 9, 10], "\(read.problems)")
        XCTAssertEqual(read.problems.map(\.message), [
            #"edit of comment "c2" by u1, not the comment's author u2, ignored"#,
            #"edit of comment "c2" of a comment deleted before, ignored"#,
            #"edit of comment "c9", which the file does not hold, ignored"#,
        ])
        XCTAssertEqual(read.recordCount, 10, "changes are records")
    }

    func testTheIndexAppliesTheSameChangesAsItDecodes() throws {
        let path = try file(Self.base + [
            Self.edit("c1", by: "u1", "first fix"),
            Self.edit("c1", by: "u1", "second fix", at: 90),
            Self.edit("c2", by: "u1", "ann rewrites bo"),
        ])
        let index = try ThreadIndex.open(path: path)
        XCTAssertEqual(index.commentCount, 2, "a change is no comment of its own")
        guard case .success(let first) = index.comment(at: 0), case .success(let second) = index.comment(at: 1) else { return XCTFail() }
        XCTAssertEqual(first.body, "second fix")
        XCTAssertEqual(first.edited, Self.start + 90)
        XCTAssertEqual(second.body, "bo's words", "another author's edit does not count")
        XCTAssertNil(second.edited)
        XCTAssertEqual(index.changeProblems.keys.sorted(), [8])
        XCTAssertTrue(index.problems.isEmpty, "\(index.problems)")
    }

    /// Ctrl-S judges lines from their bytes: a comment the file edits is left for decoding, so
    /// the search finds its new text and not its old.
    func testTheIndexLeavesAnEditedCommentUndecidedForSearch() throws {
        let path = try file(Self.base + [Self.edit("c1", by: "u1", "the typo fixed @bo")])
        let index = try ThreadIndex.open(path: path)
        let users = index.users
        let old = index.verdictsFromLines(SearchPattern(query: "teh", users: users), below: 2, atMost: 2, maxBytes: 1 << 20)
        XCTAssertEqual(old.verdicts, [.no, .undecided], "the old text is not taken as a match")
        let new = index.verdictsFromLines(SearchPattern(query: "fixed", users: users), below: 2, atMost: 2, maxBytes: 1 << 20)
        XCTAssertEqual(new.verdicts, [.no, .undecided], "the new text is not passed over")
        guard case .success(let decoded) = index.comment(at: 0) else { return XCTFail() }
        XCTAssertTrue(SearchPattern(query: "fixed", users: users).matches(decoded), "decoded, it matches")
    }

    /// A live change finds its comment by id: a canonical line's id is read from its first
    /// bytes, any other's from the decoded comment.
    func testTheIndexReadsACommentsIDWithoutDecodingACanonicalLine() throws {
        var records = Self.base
        records.append(.comment(Comment(id: "c\"3", author: "u1", created: Self.start, body: "escaped id")))
        let index = try ThreadIndex.open(path: try file(records))
        XCTAssertEqual(index.commentID(at: 1), "c2")
        XCTAssertNil(index.cache.value(for: 1), "not decoded")
        XCTAssertEqual(index.commentID(at: 2), "c\"3", "an id with an escape, decoded")
    }

    /// The index keeps where each edit is, not its body: the last edit that counts is read back
    /// when its comment is decoded.
    func testTheIndexHoldsNoEditBodyAndReadsTheLastCountingOneBack() throws {
        let large = String(repeating: "long edit ", count: 10_000)
        let path = try file(Self.base + [
            Self.edit("c1", by: "u1", large),
            Self.edit("c1", by: "u1", "final words", at: 90),
            Self.edit("c1", by: "u2", "bo's forgery", at: 100),
            Self.edit("c2", by: "u2", large),
            Self.delete("c2", by: "u2"),
        ])
        let index = try ThreadIndex.open(path: path)
        let bodies = index.changes.values.flatMap { $0 }.compactMap { if case .edit(let body) = $0.change.kind { body } else { nil } }
        XCTAssertEqual(bodies.count, 4)
        XCTAssertTrue(bodies.allSatisfy(\.isEmpty), "no edit body held")
        guard case .success(let first) = index.comment(at: 0), case .success(let second) = index.comment(at: 1) else { return XCTFail() }
        XCTAssertEqual(first.body, "final words")
        XCTAssertEqual(first.edited, Self.start + 90)
        XCTAssertEqual(second.body, "(deleted)")
    }

    func testAChangeBeforeItsCommentsLineDoesNotCount() throws {
        var records = Self.base
        records.insert(Self.edit("c2", by: "u2", "early"), at: 3)
        let path = try file(records)
        let read = try ThreadFile.read(path: path)
        XCTAssertEqual(read.thread.comments.map(\.body), ["teh typo @bo", "bo's words"])
        XCTAssertEqual(read.problems.map(\.line), [4])
        let index = try ThreadIndex.open(path: path)
        guard case .success(let second) = index.comment(at: 1) else { return XCTFail() }
        XCTAssertEqual(second.body, "bo's words")
    }

    func testAFollowerReadsAppendedChanges() throws {
        let path = try file(Self.base)
        let index = try ThreadIndex.open(path: path)
        let tail = try ThreadFileTail(path: path, follower: index.follower)
        try ThreadFileWriter(path: path).append([Self.delete("c1", by: "u1")])
        XCTAssertEqual(try tail.readAppended().records.map(\.record), [Self.delete("c1", by: "u1")])
    }
}
