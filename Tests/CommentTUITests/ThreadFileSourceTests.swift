import Foundation
import XCTest
import ThreadModel
@testable import CommentTUI

/// A thread file seen through `ThreadSource`: opening, following, sending and per-thread state.
final class ThreadFileSourceTests: XCTestCase {
    let start = Date(timeIntervalSince1970: 1_744_884_000)

    /// A thread file `t.jsonl` (header, ann and bo, comments c1…c3) in a fresh directory.
    private func writeThread(extraLines: String = "") throws -> String {
        let path = try temporaryDirectory(self).appendingPathComponent("t.jsonl").path
        var records: [ThreadRecord] = [
            .thread(ThreadHeader(id: "t1", title: "Release", author: "u1", created: start, body: "Plan")),
            .user(User(id: "u1", handle: "ann", name: "Ann")),
            .user(User(id: "u2", handle: "bo", name: "Bo")),
        ]
        records += (1...3).map { .comment(comment("c\($0)")) }
        try ThreadFileWriter(path: path).create(records)
        if !extraLines.isEmpty { try append(raw: extraLines, to: path) }
        return path
    }

    private func comment(_ id: String, author: String = "u2") -> Comment {
        Comment(id: id, author: author, created: start, body: "body of \(id)")
    }

    /// Appends bytes as they are, as a careless or dying writer would.
    private func append(raw: String, to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(raw.utf8))
    }

    /// Waits (bounded) until the source says updates wait, then takes them.
    private func waitForUpdates(_ source: ThreadSource, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let ready = try Poll.readable([XCTUnwrap(source.updatesReady, file: file, line: line)], timeout: 5)
        XCTAssertFalse(ready.isEmpty, "the source became readable within 5 s", file: file, line: line)
        return source.takeUpdates().map(describe)
    }

    /// Whether the source's descriptor is readable right now.
    private func isReadable(_ source: ThreadSource) throws -> Bool {
        !(try Poll.readable([XCTUnwrap(source.updatesReady)], timeout: 0)).isEmpty
    }

    func testOpenGivesHeaderUsersCommentsAndProblems() throws {
        let path = try writeThread(extraLines: "oops\n")
        let source = try ThreadFileSource(path: path, environment: [:])
        XCTAssertEqual(source.label, "t.jsonl")
        XCTAssertEqual(source.thread.title, "Release")
        XCTAssertEqual(source.thread.body, "Plan")
        XCTAssertEqual(source.thread.users.map(\.handle), ["ann", "bo"])
        XCTAssertEqual(source.thread.comments.count, 0, "comments stay in the file")
        XCTAssertEqual(source.openedComments.commentCount, 3)
        XCTAssertEqual(try source.openedComments.comment(at: 2).get().id, "c3")
        XCTAssertEqual(source.openingProblems.map(\.line), [7])
        XCTAssertTrue(source.openingProblems[0].message.contains("not valid JSON"), source.openingProblems[0].message)
        XCTAssertNil(source.notAThreadProblem)
        XCTAssertNil(source.olderPages, "nothing older to ask for: the index holds all")
        XCTAssertNil(source.gapFilling, "a file has no gaps")
    }

    func testOpenRefusesMissingFilesAndFlagsOnesWithNoThread() throws {
        let directory = try temporaryDirectory(self)
        let missing = directory.appendingPathComponent("none.jsonl").path
        XCTAssertThrowsError(try ThreadFileSource(path: missing, environment: [:])) { error in
            XCTAssertTrue(error is SystemError, "\(error)")
            XCTAssertTrue("\(error)".contains(missing), "\(error)")
        }
        let notes = directory.appendingPathComponent("notes.txt").path
        try "shopping list\n".write(toFile: notes, atomically: true, encoding: .utf8)
        let source = try ThreadFileSource(path: notes, environment: [:])
        XCTAssertEqual(source.notAThreadProblem?.line, 1)
    }

    func testFollowsWhatAnotherWriterAppends() throws {
        let path = try writeThread()
        let source = try ThreadFileSource(path: path, environment: [:])
        XCTAssertFalse(try isReadable(source))
        let zed = User(id: "u9", handle: "zed", name: "Zed")
        try ThreadFileWriter(path: path).append([.comment(comment("n1")), .user(zed), .comment(comment("n2", author: "u9"))])
        XCTAssertEqual(try waitForUpdates(source), ["users zed", "comments n1 n2"])
        XCTAssertFalse(try isReadable(source), "taking the updates drained the watch")

        try ThreadFileWriter(path: path).append(.comment(comment("n3")))
        XCTAssertEqual(try waitForUpdates(source), ["comments n3"])
    }

    func testAppendsBeforeTheFirstLookAreNotMissed() throws {
        let path = try writeThread()
        let source = try ThreadFileSource(path: path, environment: [:])
        try ThreadFileWriter(path: path).append(.comment(comment("early")))
        XCTAssertEqual(source.openedComments.commentCount, 3)
        XCTAssertEqual(try waitForUpdates(source), ["comments early"])
    }

    func testMalformedAndTornAppendedLinesAreProblemsNamingTheirLines() throws {
        let path = try writeThread()
        let source = try ThreadFileSource(path: path, environment: [:])
        // Line 7 is not JSON; line 8 is a writer's fragment, ended by the next append's newline.
        try append(raw: "oops\n" + #"{"type":"comm"#, to: path)
        try ThreadFileWriter(path: path).append(.comment(comment("n1")))
        let updates = try waitForUpdates(source)
        XCTAssertEqual(updates.count, 3, "\(updates)")
        XCTAssertEqual(updates.first, "comments n1")
        XCTAssertTrue(updates[1].hasPrefix("problem t.jsonl line 7: not valid JSON"), updates[1])
        XCTAssertTrue(updates[2].hasPrefix("problem t.jsonl line 8: "), updates[2])
    }

    func testAFileCutByAnotherProgramIsReadAgainFromItsStart() throws {
        let path = try writeThread()
        let source = try ThreadFileSource(path: path, environment: [:])
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 10)
        try handle.close()
        XCTAssertEqual(try waitForUpdates(source), ["reopened: t.jsonl was cut short by another program: read again from the start"])
        XCTAssertEqual(source.openedComments.commentCount, 0)
        XCTAssertEqual(source.thread.title, "", "no header left")

        // The next post (by a program of its own: the writer refuses a file without its thread
        // record) is followed from the file's new end: the cut line is torn, the post read.
        let appender = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try appender.seekToEnd()
        try appender.write(contentsOf: [0x0A] + ThreadRecordEncoder().encode(.comment(comment("late"))))
        try appender.close()
        let updates = try waitForUpdates(source)
        XCTAssertEqual(updates.first, "comments late")
        XCTAssertTrue(updates.dropFirst().allSatisfy { $0.hasPrefix("problem t.jsonl line 1: torn line") }, "\(updates)")
        XCTAssertFalse(try isReadable(source))
    }

    func testAFileMovedOverItIsReadInsteadAndFollowed() throws {
        let path = try writeThread()
        let source = try ThreadFileSource(path: path, environment: [:])
        let other = (path as NSString).deletingLastPathComponent + "/other.jsonl"
        try ThreadFileWriter(path: other).create([
            .thread(ThreadHeader(id: "t2", title: "Other", author: "u1", created: start, body: "")),
            .user(User(id: "u1", handle: "ann", name: "Ann")), .comment(comment("o1", author: "u1"))])
        XCTAssertEqual(rename(other, path), 0)
        XCTAssertEqual(try waitForUpdates(source), ["reopened: t.jsonl was replaced by another file: showing the new one"])
        XCTAssertEqual(source.thread.title, "Other")
        XCTAssertEqual(try source.openedComments.comment(at: 0).get().id, "o1")
        XCTAssertTrue(source.containsComment(id: "o1"))
        try ThreadFileWriter(path: path).append(.comment(comment("o2")))
        XCTAssertEqual(try waitForUpdates(source), ["comments o2"])
    }

    func testSendAppendsUnderTheLockOffTheCallersThreadAndIsEchoedThenConfirmed() throws {
        let path = try writeThread()
        let source = try ThreadFileSource(path: path, environment: [:])
        let mine = comment("mine", author: "u1")
        XCTAssertEqual(source.send(mine), .pending)
        var updates: [String] = []
        for _ in 0..<5 where !updates.contains("confirmed mine") { updates += try waitForUpdates(source) }
        XCTAssertEqual(updates, ["comments mine", "confirmed mine"], "the echo first, at its place in the file")
        XCTAssertEqual(try ThreadFile.read(path: path).thread.comments.last, mine)
    }

    func testSendWithoutFollowingAppendsAtOnce() throws {
        let path = try writeThread()
        let source = try ThreadFileSource(path: path, environment: [:], follows: false)
        let mine = comment("mine", author: "u1")
        XCTAssertEqual(source.send(mine), .confirmed)
        XCTAssertEqual(try ThreadFile.read(path: path).thread.comments.last, mine)
    }

    func testSendFailsWhenTheFileCannotBeAppendedTo() throws {
        let path = try writeThread()
        let source = try ThreadFileSource(path: path, environment: [:])
        // Running as root would ignore a read-only mode; a removed file fails for everyone
        // (appends never create a thread file).
        try FileManager.default.removeItem(atPath: path)
        guard case .failed(let reason) = source.send(comment("lost", author: "u1")) else {
            return XCTFail("sent to a removed file")
        }
        XCTAssertTrue(reason.message.contains(path) && reason.message.contains("No such file"), reason.message)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    func testReadMarkerRoundTripAndDraftFileLocation() throws {
        let path = try writeThread()
        let data = try temporaryDirectory(self).path
        let environment = ["XDG_DATA_HOME": data, "HOME": "/nonexistent"]
        let source = try ThreadFileSource(path: path, environment: environment)
        XCTAssertNil(source.loadReadMarker())
        let marker = ReadMarker(commentID: "c2", position: 1)
        try source.saveReadMarker(marker)
        let reopened = try ThreadFileSource(path: path, environment: environment, follows: false)
        XCTAssertEqual(reopened.loadReadMarker(), marker)

        let draft = try XCTUnwrap(source.draftFile)
        XCTAssertTrue(draft.path.hasPrefix(data + "/comment-tui/state/t.jsonl-"), draft.path)
        XCTAssertTrue(draft.path.hasSuffix(".draft.json"), draft.path)
        XCTAssertEqual(draft.path, ThreadStateFiles(threadPath: path, environment: environment)?.path(for: "draft.json"))
    }

    func testWithoutADataDirectoryStateIsNotKept() throws {
        let path = try writeThread()
        let source = try ThreadFileSource(path: path, environment: ["HOME": "relative/home"])
        XCTAssertNil(source.draftFile)
        XCTAssertNil(source.loadReadMarker())
        XCTAssertNoThrow(try source.saveReadMarker(ReadMarker(commentID: "c1", position: 0)))
        XCTAssertNil(source.loadReadMarker())
    }

    func testAWatchThatCannotStartIsReportedOnceAndTheThreadStillOpens() throws {
        let path = try writeThread()
        let source = try ThreadFileSource(path: path, environment: [:], watch: { _ in throw SystemError("watch t.jsonl", code: ENOSPC) })
        XCTAssertEqual(source.openedComments.commentCount, 3)
        XCTAssertEqual(try waitForUpdates(source), ["problem stopped following: watch t.jsonl: No space left on device"])
        XCTAssertFalse(try isReadable(source))
        try ThreadFileWriter(path: path).append(.comment(comment("n1")))
        XCTAssertEqual(source.takeUpdates().count, 0)
    }

    func testOpenedWithoutFollowingItNeverChanges() throws {
        let path = try writeThread()
        let source = try ThreadFileSource(path: path, environment: [:], follows: false)
        XCTAssertNil(source.updatesReady)
        try ThreadFileWriter(path: path).append(.comment(comment("n1")))
        XCTAssertEqual(source.takeUpdates().count, 0)
    }
}
