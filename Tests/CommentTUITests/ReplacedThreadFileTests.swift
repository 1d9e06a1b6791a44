import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI

/// A thread file replaced, cut or removed by another program while the client shows it (issue
/// 22, item 11): the client notices, reads the file at the path again from the start, says so,
/// and follows (and posts to) the file it shows.
final class ReplacedThreadFileTests: XCTestCase {
    private func pump(_ app: CommentApp, _ what: String, until done: () -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(LiveThreadFile.pump(app, timeout: 3, until: done),
                      "\(what); the status bar says: \(app.message ?? "nothing")", file: file, line: line)
    }

    /// Bytes of a whole thread file titled `title` with these comments.
    private func threadBytes(_ title: String, _ ids: [String]) -> Data {
        var bytes: [UInt8] = []
        for record in LiveThreadFile.records(title: title, comments: ids) { ThreadRecordEncoder().append(record, to: &bytes) }
        return Data(bytes)
    }

    /// After a reopen, another writer's post and ours show in the file's order.
    private func assertFollowsTheFileAtThePath(_ app: CommentApp, _ file: LiveThreadFile, line: UInt = #line) throws {
        try ThreadFileWriter(path: file.path).append(.comment(LiveThreadFile.comment("later")))
        pump(app, "another writer's post after the reopen", until: { app.allComments.last?.id == "later" }, line: line)
        LiveThreadFile.type("mine after\r", into: app)
        pump(app, "our post after the reopen", until: { app.unconfirmedComments.isEmpty }, line: line)
        XCTAssertEqual(app.allComments.map(\.id), try file.fileCommentIDs(), "the client shows the file at the path", line: line)
        app.feed.scroll._checkInvariants()
        XCTAssertTrue(app.render().buffer.lines.joined().contains("mine after"), "the feed shows the newest", line: line)
        XCTAssertEqual(try file.fileBodies().last, "mine after", line: line)
    }

    func testAFileMovedOverTheThreadIsReopenedAndSaysSo() throws {
        let file = try LiveThreadFile(self)
        let app = try file.openApp()
        XCTAssertEqual(app.allComments.map(\.id), ["c1", "c2", "c3"])
        let other = file.directory.appendingPathComponent("other.jsonl").path
        try ThreadFileWriter(path: other).create(LiveThreadFile.records(title: "Other", comments: ["o1", "o2"]))
        XCTAssertEqual(rename(other, file.path), 0)  // mv other.jsonl t.jsonl

        pump(app, "the client noticed the new file", until: { app.message?.contains("replaced") == true })
        XCTAssertEqual(app.message, "t.jsonl was replaced by another file: showing the new one")
        XCTAssertEqual(app.currentTitle, "Other")
        XCTAssertEqual(app.allComments.map(\.id), ["o1", "o2"])
        try assertFollowsTheFileAtThePath(app, file)
    }

    /// Moves a thread file with these users (and `comments` by the first) over the client's.
    private func moveOver(_ file: LiveThreadFile, users: [User], comments: [String] = ["first"]) throws {
        let other = file.directory.appendingPathComponent("other.jsonl").path
        let header = ThreadHeader(id: "t-other", title: "Other", author: users[0].id, created: LiveThreadFile.start, body: "")
        try ThreadFileWriter(path: other).create([.thread(header)] + users.map(ThreadRecord.user) + comments.enumerated().map {
            .comment(Comment(id: "o\($0.offset + 1)", author: users[0].id, created: LiveThreadFile.start, body: $0.element))
        })
        XCTAssertEqual(rename(other, file.path), 0)
    }

    /// `moveOver`, then the client notices.
    private func replace(_ file: LiveThreadFile, users: [User], in app: CommentApp) throws {
        try moveOver(file, users: users)
        pump(app, "the client noticed the new file", until: { app.message?.contains("replaced") == true })
    }

    func testANewFileThatKnowsTheReaderByAnotherIDGetsTheirPostsUnderThatID() throws {
        let file = try LiveThreadFile(self)
        let app = try file.openApp()
        XCTAssertEqual(app.me.id, "u1")
        // In the new file u1 is someone else, and ann is u9.
        try replace(file, users: [User(id: "u1", handle: "cy", name: "Cy"), User(id: "u9", handle: "ann", name: "Ann B")], in: app)
        LiveThreadFile.type("still me\r", into: app)
        pump(app, "the post", until: { app.unconfirmedComments.isEmpty })
        let written = try ThreadFile.read(path: file.path)
        XCTAssertEqual(written.problems, [])
        XCTAssertEqual(written.thread.comments.last?.body, "still me")
        XCTAssertEqual(written.thread.comments.last?.author, "u9", "the new file's ann, not its u1")
        XCTAssertTrue(app.render().buffer.lines.contains { $0.contains("Ann B @ann") }, "shown under the new file's name")
    }

    func testANewFileWithoutTheReaderGetsTheirUserRecordBeforeTheirFirstPost() throws {
        let file = try LiveThreadFile(self)
        let app = try file.openApp()
        try replace(file, users: [User(id: "u1", handle: "cy", name: "Cy")], in: app)
        LiveThreadFile.type("hello\r", into: app)
        pump(app, "the first post", until: { app.unconfirmedComments.isEmpty })
        LiveThreadFile.type("again\r", into: app)
        pump(app, "the second post", until: { app.unconfirmedComments.isEmpty })
        let written = try ThreadFile.read(path: file.path)
        XCTAssertEqual(written.problems, [], "check finds nothing: every author is a user of the file")
        let ann = try XCTUnwrap(written.thread.user(handle: "ann"))
        XCTAssertNotEqual(ann.id, "u1", "u1 is Cy's here: ann joins under a new id")
        XCTAssertEqual(ann.name, "Ann")
        XCTAssertEqual(written.thread.comments.suffix(2).map(\.author), [ann.id, ann.id])
        let lines = try String(contentsOfFile: file.path, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.contains(#""handle":"ann""#) }.count, 1, "her record is written once, before her first post")
    }

    func testANewFileWithoutTheReaderGetsTheirUserRecordBeforeTheirFirstReaction() throws {
        let file = try LiveThreadFile(self)
        let app = try file.openApp()
        try replace(file, users: [User(id: "u1", handle: "cy", name: "Cy")], in: app)
        XCTAssertEqual(app.source.reacting?.toggleReaction("👍", on: "o1"), .adding)
        pump(app, "our reaction read back", until: { app.reactions["o1"]?.first?.includesMine == true })
        let written = try ThreadFile.read(path: file.path)
        XCTAssertEqual(written.problems, [], "check finds nothing: the reaction's author is a user of the file")
        let ann = try XCTUnwrap(written.thread.user(handle: "ann"))
        XCTAssertNotEqual(ann.id, "u1")
        XCTAssertEqual(written.thread.reactions.reactors(of: "o1").map(\.authors), [[ann.id]])
        let lines = try String(contentsOfFile: file.path, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.contains(#""handle":"ann""#) }.count, 1, "her record is written once, before her reaction")
        // Her next post does not write it again.
        LiveThreadFile.type("then a post\r", into: app)
        pump(app, "the post", until: { app.unconfirmedComments.isEmpty })
        let after = try String(contentsOfFile: file.path, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(after.filter { $0.contains(#""handle":"ann""#) }.count, 1)
        XCTAssertEqual(try ThreadFile.read(path: file.path).problems, [])
    }

    func testACommentWaitingForTheLockWhenTheFileIsReplacedGoesUnderTheNewID() throws {
        let file = try LiveThreadFile(self)
        let app = try file.openApp()
        let lock = try AppendLock(path: file.path)
        lock.release(after: 10)  // a safety net: the test lets go itself
        LiveThreadFile.type("waited\r", into: app)
        XCTAssertEqual(app.unconfirmedComments.values.first, .sending)
        // In the new file u1 is Cy: the waiting comment must not land as hers.
        try replace(file, users: [User(id: "u1", handle: "cy", name: "Cy"), User(id: "u9", handle: "ann", name: "Ann B")], in: app)
        XCTAssertTrue(app.render().buffer.lines.contains { $0.contains("Ann B @ann") }, "shown as the new file's ann while it waits")
        lock.release()
        pump(app, "the waiting post", until: { app.unconfirmedComments.isEmpty })
        let written = try ThreadFile.read(path: file.path)
        XCTAssertEqual(written.problems, [])
        XCTAssertEqual(written.thread.comments.last.map { [$0.body, $0.author] }, ["waited", "u9"])
    }

    /// The lock is let go before the client has noticed the new file: the append meets a file
    /// the source has not read, waits for it, and goes under the id that file knows.
    func testAnAppendThatMeetsTheNewFileBeforeTheClientReadsItWaitsForTheClient() throws {
        let file = try LiveThreadFile(self)
        let app = try file.openApp()
        let source = try XCTUnwrap(app.source as? ThreadFileSource)
        let lock = try AppendLock(path: file.path)
        lock.release(after: 10)
        LiveThreadFile.type("raced\r", into: app)
        LiveThreadFile.type("raced too\r", into: app)
        try moveOver(file, users: [User(id: "u1", handle: "cy", name: "Cy"), User(id: "u9", handle: "ann", name: "Ann B")], comments: [])
        lock.release()
        // The app has not looked at its source since: the append holds the new file's lock.
        let deadline = Date(timeIntervalSinceNow: 5)
        while source.following?.appender.deferredCount != 2, Date() < deadline { usleep(10_000) }
        XCTAssertEqual(source.following?.appender.deferredCount, 2, "both appends wait for the client")
        XCTAssertEqual(try file.fileBodies(), [], "nothing written to a file the client has not read")
        pump(app, "the posts once the client read the new file", until: { app.unconfirmedComments.isEmpty })
        let written = try ThreadFile.read(path: file.path)
        XCTAssertEqual(written.problems, [])
        XCTAssertEqual(written.thread.comments.map { [$0.body, $0.author] }, [["raced", "u9"], ["raced too", "u9"]], "in the order sent")
    }

    func testQuittingWhileACommentWaitsAcrossAReplacementKeepsItAsTheDraft() throws {
        let file = try LiveThreadFile(self)
        let app = try file.openApp()
        let lock = try AppendLock(path: file.path)
        lock.release(after: 10)
        LiveThreadFile.type("not lost\r", into: app)
        try replace(file, users: [User(id: "u1", handle: "cy", name: "Cy")], in: app)
        app.keepUnsentInDraft()
        XCTAssertEqual(app.draftMarkdown, "not lost", "the reader's comment, under whichever id, comes back")
        lock.release()
        XCTAssertFalse(try file.fileBodies().contains("not lost"), "withdrawn, so never written")
    }

    func testAFileEmptiedByAnotherProgramIsReadAgainFromTheStart() throws {
        let file = try LiveThreadFile(self)
        let app = try file.openApp()
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: file.path))
        try handle.truncate(atOffset: 0)  // `: > t.jsonl`
        try handle.close()
        pump(app, "the client noticed the cut", until: { app.message?.contains("cut") == true })
        XCTAssertEqual(app.message, "t.jsonl was cut short by another program: read again from the start")
        XCTAssertEqual(app.allComments.count, 0)

        // Someone writes a thread into it again; the client follows it from its first byte.
        let refill = try XCTUnwrap(FileHandle(forWritingAtPath: file.path))
        try refill.write(contentsOf: threadBytes("Refilled", ["r1"]))
        try refill.close()
        pump(app, "the refilled file's comment", until: { app.allComments.map(\.id) == ["r1"] })
        try assertFollowsTheFileAtThePath(app, file)
    }

    func testAFileRewrittenLongerBeforeTheClientLooksIsReadAgain() throws {
        let file = try LiveThreadFile(self)
        let app = try file.openApp()
        // `cp bigger.jsonl t.jsonl`: the same file, cut and written again past the old end.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: file.path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: threadBytes("Bigger", (1...6).map { "b\($0)" }))
        try handle.close()
        pump(app, "the client noticed the rewrite", until: { app.message?.contains("cut") == true })
        XCTAssertEqual(app.currentTitle, "Bigger")
        XCTAssertEqual(app.allComments.map(\.id), ["b1", "b2", "b3", "b4", "b5", "b6"])
        try assertFollowsTheFileAtThePath(app, file)
    }

    func testARemovedFileIsSaidAndOneCreatedAtThePathIsOpened() throws {
        let file = try LiveThreadFile(self)
        let app = try file.openApp()
        try FileManager.default.removeItem(atPath: file.path)
        pump(app, "the client noticed the removal", until: { app.message?.contains("removed") == true })
        XCTAssertEqual(app.allComments.map(\.id), ["c1", "c2", "c3"], "what it held stays on screen")

        try ThreadFileWriter(path: file.path).create(LiveThreadFile.records(title: "Anew", comments: ["a1"]))
        pump(app, "the client opened the new file", until: { app.message?.contains("replaced") == true })
        XCTAssertEqual(app.allComments.map(\.id), ["a1"])
        try assertFollowsTheFileAtThePath(app, file)
    }
}
