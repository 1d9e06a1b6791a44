import Foundation
import XCTest
@testable import ThreadModel

final class ThreadIndexTests: XCTestCase {
    private let header = #"{"type":"thread","id":"t1","title":"Hello","author":"u1","created":"2025-04-17T10:00:00Z","body":"Post"}"#
    private let user1 = #"{"type":"user","id":"u1","handle":"tatiana","name":"Tatiana B."}"#
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "thread-index-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func write(_ bytes: [UInt8], name: String = "thread.jsonl") -> String {
        let path = directory + "/" + name
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    private func comment(_ id: String, body: String = "hi") -> String {
        #"{"type":"comment","id":"\#(id)","author":"u1","created":"2025-04-17T10:05:00Z","body":"\#(body)"}"#
    }

    /// Opens with the normal chunk and with tiny ones (lines straddle chunks and outgrow the
    /// buffer); every way must give the same index, which is returned.
    private func openEveryWay(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> ThreadIndex {
        let index = try ThreadIndex.open(path: path)
        index._checkInvariants()
        for chunkSize in [1, 7, 64, 1000] {
            let small = try ThreadIndex.open(path: path, chunkSize: chunkSize)
            small._checkInvariants()
            XCTAssertEqual(small.commentOffsets, index.commentOffsets, "chunk \(chunkSize)", file: file, line: line)
            XCTAssertEqual(small.commentLines, index.commentLines, "chunk \(chunkSize)", file: file, line: line)
            XCTAssertEqual(small.problems, index.problems, "chunk \(chunkSize)", file: file, line: line)
            XCTAssertEqual(small.users, index.users, "chunk \(chunkSize)", file: file, line: line)
            XCTAssertEqual(small.follower.offset, index.follower.offset, "chunk \(chunkSize)", file: file, line: line)
            XCTAssertEqual(small.follower.lineCount, index.follower.lineCount, "chunk \(chunkSize)", file: file, line: line)
        }
        return index
    }

    func testGeneratedFileGivesTheSameCommentsUsersAndHeaderAsReadingItWhole() throws {
        var bytes: [UInt8] = []
        try ThreadGenerator(comments: 3000, users: 40, seed: 3).write { bytes += $0 }
        let path = write(bytes)
        let (whole, follower) = try ThreadFile.readFollowing(path: path)
        let index = try openEveryWay(path)
        XCTAssertEqual(whole.problems, [])
        XCTAssertEqual(index.problems, [])
        XCTAssertEqual(index.commentCount, whole.thread.comments.count)
        XCTAssertEqual(index.header, ThreadHeader(whole.thread))
        XCTAssertEqual(index.users, whole.thread.users)
        XCTAssertEqual(index.follower.offset, follower.offset)
        XCTAssertEqual(index.follower.lineCount, follower.lineCount)
        // Newest first, as the app opens, then all in order: far more than the cache holds.
        for position in (0..<index.commentCount).reversed() {
            XCTAssertEqual(try index.comment(at: position).get(), whole.thread.comments[position])
        }
        for position in 0..<index.commentCount {
            XCTAssertEqual(try index.comment(at: position).get(), whole.thread.comments[position])
            XCTAssertEqual(index.lineNumber(ofComment: position), 1 + 40 + 1 + position, "header, users, then comments")
        }
        index._checkInvariants()
    }

    func testAwkwardLinesAreClassifiedAndProblemsCarryTheirLineNumbers() throws {
        let text = [
            header,                                                                        // 1
            "",                                                                            // 2 blank
            comment("c1"),                                                                 // 3
            "not json at all",                                                             // 4
            #"{ "body":"spaced","created":"2025-04-17T10:06:00Z","author":"u2","id":"c2", "type":"comment" }"#, // 5 not canonical
            #"{"type":"reaction","id":"r1","emoji":"👍"}"#,                                 // 6 unknown type
            "   \t",                                                                       // 7 blank with spaces
            #"{"type":"comment","id":"c3","author":"u1","cre"#,                            // 8 torn, then terminated
            comment("c4").replacingOccurrences(of: "2025-04-17T10:05:00Z", with: "yesterday"), // 9 bad time, found on decode
            user1,                                                                         // 10 users after comments
            #"{"type":"user","id":"u2","handle":"marco","name":"Marco"}"#,                 // 11
            #"{"type":"user","id":"u3","handle":"Marco","name":"Other"}"#,                 // 12 handle taken
            #"{"type":"thread","id":"t2","title":"Again","author":"u1","created":"2025-04-17T10:00:00Z","body":""}"#, // 13
            comment("c5", body: "last"),                                                   // 14
        ].joined(separator: "\n") + "\n" + #"{"type":"comment","id":"c6""#                 // pending
        let path = write(Array(text.utf8))
        let index = try openEveryWay(path)

        XCTAssertEqual(index.header?.title, "Hello")
        XCTAssertEqual(index.users.map(\.id), ["u1", "u2"])
        XCTAssertEqual(index.commentCount, 4, "c1, c2, c4 (fails later), c5; not the torn c3 nor the pending c6")
        XCTAssertEqual((0..<4).map(index.lineNumber(ofComment:)), [3, 5, 9, 14])
        XCTAssertEqual(index.problems.map(\.line), [4, 8, 12, 13])
        XCTAssertEqual(index.problems[1].message, "torn line (an append that never finished), skipped")
        XCTAssertEqual(index.problems[2].message, #"handle "Marco" already belongs to user u2, skipped"#)

        XCTAssertEqual(try index.comment(at: 0).get().id, "c1")
        XCTAssertEqual(try index.comment(at: 1).get().body, "spaced")
        XCTAssertEqual(try index.comment(at: 3).get().body, "last")
        guard case .failure(let problem) = index.comment(at: 2) else { return XCTFail("c4 has a bad time") }
        XCTAssertEqual(problem.line, 9)

        // Together, indexing and decoding find what reading the whole file finds.
        let whole = try ThreadFile.read(path: path)
        let decodeProblems = (0..<index.commentCount).compactMap { position -> ThreadFileProblem? in
            if case .failure(let problem) = index.comment(at: position) { return problem }
            return nil
        }
        XCTAssertEqual((index.problems + decodeProblems).sorted { $0.line < $1.line }, whole.problems)

        // The follower starts at the pending line, which is not indexed.
        XCTAssertEqual(index.follower.lineCount, 14)
        XCTAssertEqual(index.follower.offset, text.utf8.count - #"{"type":"comment","id":"c6""#.utf8.count)
        XCTAssertEqual(index.follower.pendingByteCount, 0)
        index._checkInvariants()
    }

    func testThePendingTailIsPickedUpByTheFollowerWhenItsNewlineArrives() throws {
        let tail = comment("c2", body: "arriving")
        let text = header + "\n" + user1 + "\n" + comment("c1") + "\n" + tail.prefix(20)
        let path = write(Array(text.utf8))
        let index = try openEveryWay(path)
        XCTAssertEqual(index.commentCount, 1)
        var follower = index.follower
        XCTAssertEqual(follower.offset, text.utf8.count - 20)
        XCTAssertEqual(follower.lineCount, 3)
        // The follower re-reads from the start of the pending line, as `ThreadFileTail` does.
        let update = follower.ingest(Array((tail + "\n").utf8))
        XCTAssertEqual(update.problems, [])
        XCTAssertEqual(update.records.map(\.line), [4])
        guard case .comment(let arrived)? = update.records.first?.record else { return XCTFail("a comment arrives") }
        XCTAssertEqual(arrived.body, "arriving")
    }

    func testCommentIdsAreNotDeduplicatedWhenIndexing() throws {
        let text = [header, user1, comment("c1", body: "first"), comment("c1", body: "again")].joined(separator: "\n") + "\n"
        let path = write(Array(text.utf8))
        let index = try openEveryWay(path)
        XCTAssertEqual(index.commentCount, 2)
        XCTAssertEqual(try index.comment(at: 1).get().body, "again")
        XCTAssertEqual(try ThreadFile.read(path: path).problems.map(\.line), [4], "check still reports the reused id")
    }

    func testALineLongerThanAChunkIsIndexed() throws {
        let long = String(repeating: "ab日本", count: 300_000)  // about 3 MB, past the 1,000-byte and 64-byte chunks
        let text = [header, user1, comment("c1", body: long), comment("c2")].joined(separator: "\n") + "\n"
        let path = write(Array(text.utf8))
        let index = try openEveryWay(path)
        XCTAssertEqual(index.commentCount, 2)
        XCTAssertEqual(try index.comment(at: 0).get().body, long)
        XCTAssertEqual(try index.comment(at: 1).get().id, "c2")
    }

    func testAnEmptyFileHasNoThreadRecordAndNothingElse() throws {
        let index = try openEveryWay(write([]))
        XCTAssertNil(index.header)
        XCTAssertEqual(index.commentCount, 0)
        XCTAssertEqual(index.users, [])
        XCTAssertEqual(index.problems, [ThreadFileProblem(line: 1, message: "no thread record (the title and post are missing)")])
        XCTAssertEqual(index.follower.offset, 0)
        XCTAssertEqual(index.follower.lineCount, 0)
    }

    func testUsersFollowTheFileRulesLatestRecordPerId() throws {
        let text = [
            header, user1,
            #"{"type":"user","id":"u1","handle":"tanya","name":"Tanya"}"#,   // renames u1, freeing "tatiana"
            #"{"type":"user","id":"u2","handle":"Tatiana","name":"New"}"#,   // takes the freed handle
            #"{"type":"user","id":"u3","handle":"TANYA","name":"Clash"}"#,   // owned by u1
        ].joined(separator: "\n") + "\n"
        let path = write(Array(text.utf8))
        let index = try openEveryWay(path)
        XCTAssertEqual(index.users, [User(id: "u1", handle: "tanya", name: "Tanya"), User(id: "u2", handle: "Tatiana", name: "New")])
        XCTAssertEqual(index.problems.map(\.line), [5])
        XCTAssertEqual(index.users, try ThreadFile.read(path: path).thread.users)
    }

    func testOpeningAMissingFileThrows() {
        XCTAssertThrowsError(try ThreadIndex.open(path: directory + "/missing.jsonl")) { error in
            XCTAssertTrue(error is SystemError)
        }
    }

    func testNeverWritesTheFile() throws {
        var bytes: [UInt8] = []
        try ThreadGenerator(comments: 200, users: 5, seed: 1).write { bytes += $0 }
        let path = write(bytes)
        let index = try openEveryWay(path)
        for position in 0..<index.commentCount { _ = index.comment(at: position) }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), Data(bytes))
    }
}
