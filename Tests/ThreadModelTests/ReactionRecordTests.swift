import Foundation
import XCTest
@testable import ThreadModel

/// Reactions in a thread file: `react` and `unreact` records in the canonical shape, counted by
/// the reader in file order (a taking back is a record of its own), bounded per comment and per
/// person, with malformed ones named.
final class ReactionRecordTests: XCTestCase {
    static let start = Date(timeIntervalSince1970: 1_744_884_000)

    private func file(_ records: [ThreadRecord], extraLines: [String] = []) throws -> String {
        let path = try recordFile(records)
        if !extraLines.isEmpty {
            let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
            handle.seekToEndOfFile()
            handle.write(Data(extraLines.map { $0 + "\n" }.joined().utf8))
            handle.closeFile()
        }
        return path
    }

    private static let base: [ThreadRecord] = [
        .thread(ThreadHeader(id: "t", title: "T", author: "u1", created: start, body: "post")),
        .user(User(id: "u1", handle: "ann", name: "Ann")),
        .user(User(id: "u2", handle: "bo", name: "Bo")),
        .comment(Comment(id: "c1", author: "u1", created: start, body: "first")),
        .comment(Comment(id: "c2", author: "u2", created: start, body: "second")),
    ]

    private static func react(_ id: String, by author: String, _ key: String, at seconds: Double = 60, removes: Bool = false) -> ThreadRecord {
        .reaction(ReactionChange(comment: id, author: author, created: start + seconds, key: key, removes: removes))
    }

    func testRecordsAreCanonicalAndReadBack() {
        let encoder = ThreadRecordEncoder()
        let react = String(decoding: encoder.encode(Self.react("c1", by: "u2", "👍")), as: UTF8.self)
        XCTAssertEqual(react, #"{"type":"react","comment":"c1","author":"u2","created":"2025-04-17T10:01:00Z","key":"👍"}"# + "\n")
        let unreact = String(decoding: encoder.encode(Self.react("c1", by: "u2", "👍", removes: true)), as: UTF8.self)
        XCTAssertEqual(unreact, #"{"type":"unreact","comment":"c1","author":"u2","created":"2025-04-17T10:01:00Z","key":"👍"}"# + "\n")
        let decoder = ThreadRecordDecoder()
        XCTAssertEqual(decoder.decode(Array(react.utf8.dropLast())[...]), .record(Self.react("c1", by: "u2", "👍")))
        XCTAssertEqual(decoder.decode(Array(unreact.utf8.dropLast())[...]), .record(Self.react("c1", by: "u2", "👍", removes: true)))
    }

    func testTheReaderCountsAddsAndTakingsBackInFileOrder() throws {
        let path = try file(Self.base + [
            Self.react("c1", by: "u1", "👍"),
            Self.react("c1", by: "u2", "👍"),
            Self.react("c1", by: "u2", "🎉"),
            Self.react("c1", by: "u2", "👍", removes: true),
            Self.react("c2", by: "u1", "🎉"),
            Self.react("c2", by: "u1", "🎉", removes: true),
            Self.react("c2", by: "u1", "🎉", at: 200),
            Self.react("c1", by: "u1", "👍"),  // a repeat counts once
        ])
        let read = try ThreadFile.read(path: path)
        XCTAssertEqual(read.problems, [])
        XCTAssertEqual(read.recordCount, 13, "reactions are records")
        let tally = read.thread.reactions
        XCTAssertEqual(tally.counts(of: "c1", me: "u1"), [ReactionCount(key: "👍", count: 1, includesMine: true),
                                                         ReactionCount(key: "🎉", count: 1, includesMine: false)])
        XCTAssertEqual(tally.counts(of: "c2", me: "u2"), [ReactionCount(key: "🎉", count: 1, includesMine: false)])
        XCTAssertEqual(tally.reactors(of: "c1").map(\.authors), [["u1"], ["u2"]])
    }

    func testMalformedReactionsAreNamedProblems() throws {
        let long = String(repeating: "x", count: 257)
        let path = try file(Self.base + [Self.react("c9", by: "u1", "👍")], extraLines: [
            #"{"type":"react","comment":"c1","author":"u1","created":"2025-04-17T10:01:00Z","key":""}"#,
            #"{"type":"react","comment":"c1","author":"u1","created":"2025-04-17T10:01:00Z","key":"\#(long)"}"#,
            #"{"type":"react","comment":"c1","author":"u1","created":"2025-04-17T10:01:00Z","key":"a\u001b[2Jb"}"#,
            #"{"type":"react","comment":"c1","author":"u1","created":"2025-04-17T10:01:00Z","key":"\u202eok"}"#,
            #"{"type":"react","comment":"c1","author":"u1","created":"2025-04-17T10:01:00Z"}"#,
            #"{"type":"unreact","comment":"c1","author":"u7","created":"2025-04-17T10:01:00Z","key":"👍"}"#,
        ])
        let read = try ThreadFile.read(path: path)
        XCTAssertEqual(read.problems.map(\.line), [6, 7, 8, 9, 10, 11, 12], "\(read.problems)")
        XCTAssertEqual(read.problems.map(\.message), [
            #"react of comment "c9", which the file does not hold, ignored"#,
            "react record: key is empty, skipped",
            "react record: key of 257 bytes is over the 256-byte limit, skipped",
            "react record: key holds control characters, skipped",
            "react record: key holds invisible or bidi control characters, skipped",
            #"react record: missing "key", skipped"#,
            #"unreact by unknown user "u7" (no user record with that id)"#,
        ])
        XCTAssertTrue(read.thread.reactions.isEmpty)
    }

    func testOnePersonsAndOneCommentsReactionsAreBounded() throws {
        var records = Self.base
        for n in 0..<(ReactionTally.mostPerSender + 1) { records.append(Self.react("c1", by: "u2", "k\(n)")) }
        let read = try ThreadFile.read(path: try file(records))
        XCTAssertEqual(read.thread.reactions.counts(of: "c1", me: "").count, ReactionTally.mostPerSender)
        XCTAssertEqual(read.problems.map(\.message), [
            #"react of comment "c1" over the bound of 20 reactions by one person to one comment, ignored"#,
        ])
        var tally = ReactionTally()
        for n in 0..<ReactionTally.mostPerComment {
            tally.apply(ReactionChange(comment: "c1", author: "p\(n)", created: Self.start, key: "👍"))
        }
        XCTAssertNotNil(tally.apply(ReactionChange(comment: "c1", author: "late", created: Self.start, key: "👍")).refusal)
        XCTAssertEqual(tally.counts(of: "c1", me: "").first?.count, ReactionTally.mostPerComment)
    }

    func testADeletedCommentKeepsNoReactions() throws {
        let path = try file(Self.base + [
            Self.react("c1", by: "u2", "👍"),
            .change(CommentChange(comment: "c1", author: "u1", created: Self.start + 90, kind: .delete)),
        ])
        let read = try ThreadFile.read(path: path)
        XCTAssertEqual(read.problems, [])
        XCTAssertTrue(read.thread.reactions.isEmpty)
    }

    func testTheIndexCountsTheReactionsAndReadsTheRecordsAgainInFileOrder() throws {
        let path = try file(Self.base + [Self.react("c1", by: "u2", "👍"), Self.react("c1", by: "u2", "👍", at: 90, removes: true),
                                         Self.react("c2", by: "u1", "🎉")])
        let index = try ThreadIndex.open(path: path)
        XCTAssertEqual(index.commentCount, 2, "a reaction is no comment")
        XCTAssertTrue(index.reactions.counts(of: "c1", me: "").isEmpty)
        XCTAssertEqual(index.reactions.counts(of: "c2", me: "u1"), [ReactionCount(key: "🎉", count: 1, includesMine: true)])
        var read: [(line: Int, removes: Bool)] = []
        try index.forEachReactionRecord { read.append(($1, $0.removes)) }
        XCTAssertEqual(read.map(\.line), [6, 7, 8])
        XCTAssertEqual(read.map(\.removes), [false, true, false])
        XCTAssertTrue(index.problems.isEmpty, "\(index.problems)")
    }

    func testExportedRecordsHoldTheStandingReactions() throws {
        let path = try file(Self.base + [
            Self.react("c2", by: "u1", "🎉"),
            Self.react("c1", by: "u2", "👍"),
            Self.react("c1", by: "u1", "👀"),
            Self.react("c1", by: "u1", "👀", removes: true),
        ])
        let records = ThreadRecord.records(of: try ThreadFile.read(path: path).thread)
        XCTAssertEqual(Array(records.suffix(2)), [Self.react("c1", by: "u2", "👍"), Self.react("c2", by: "u1", "🎉")],
                       "what stands, comment by comment: no history")
    }
}
