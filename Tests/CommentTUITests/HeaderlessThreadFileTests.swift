import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI

/// Posting into a thread file that has no thread record (cut to empty, or garbage) is refused
/// with a message naming the file, and the comment is kept, never appended: by `post`, and by
/// the app whether the file was cut before Enter or while the append waited (issue 36).
final class HeaderlessThreadFileTests: XCTestCase {
    private func type(_ text: String, into app: CommentApp) { LiveThreadFile.type(text, into: app) }

    private func size(_ path: String) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    func testPostRefusesAFileCutToEmptyOrHoldingGarbageNamingIt() throws {
        let directory = try temporaryDirectory(self)
        for (name, content) in [("empty.jsonl", ""), ("garbage.jsonl", "not a thread\n{\"type\":\"user\"\n")] {
            let path = directory.appendingPathComponent(name).path
            try Data(content.utf8).write(to: URL(fileURLWithPath: path))
            let run = VerbRun(.post, [path, "--as", "ann", "--name", "Ann", "--body", "into nothing"])
            XCTAssertEqual(run.status, 1, name)
            XCTAssertEqual(run.error, "comment-tui post: cannot post to \(path): it has no thread record "
                           + "(it is empty, cut short or not a thread file); nothing was posted\n")
            XCTAssertEqual(run.text, "", "no comment id printed")
            XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), content, "\(name): nothing appended")
        }
    }

    func testPostToAThreadCutToEmptySinceTheLastPostIsRefused() throws {
        // The users kept from the last post (the state directory) must not stand for the file.
        let path = try temporaryDirectory(self).appendingPathComponent("t.jsonl").path
        let environment = ["XDG_DATA_HOME": (path as NSString).deletingLastPathComponent + "/data"]
        XCTAssertEqual(VerbRun(.new, [path, "--title", "T", "--as", "ann"], environment: environment).status, 0)
        XCTAssertEqual(VerbRun(.post, [path, "--as", "ann", "--body", "first"], environment: environment).status, 0)
        XCTAssertEqual(truncate(path, 0), 0)
        let run = VerbRun(.post, [path, "--as", "ann", "--body", "second"], environment: environment)
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.error.contains("cannot post to \(path): it has no thread record"), run.error)
        XCTAssertEqual(try size(path), 0, "nothing appended")
    }

    func testTheAppKeepsACommentSentIntoAFileCutToEmpty() throws {
        let file = try LiveThreadFile(self)
        let app = try file.openApp()
        XCTAssertEqual(truncate(file.path, 0), 0)
        // The source reads the cut file again (and finds no thread in it).
        XCTAssertTrue(LiveThreadFile.pump(app) { app.allComments.isEmpty }, "the cut was read")
        type("after the cut\r", into: app)
        let mine = try XCTUnwrap(app.allComments.last)
        XCTAssertEqual(mine.body, "after the cut")
        XCTAssertTrue(LiveThreadFile.pump(app) { if case .failed = app.unconfirmedComments[mine.id] { true } else { false } }, "the append failed")
        XCTAssertTrue(app.message?.contains("\(file.path) has no thread record") == true, app.message ?? "")
        XCTAssertEqual(try size(file.path), 0, "never appended")
        let outbox = CommentOutbox(files: try XCTUnwrap((app.source as? ThreadFileSource)?.stateFiles))
        XCTAssertEqual(try outbox.unsent().map(\.txn), [mine.id], "kept in the outbox")
        app.keepUnsentInDraft()
        XCTAssertEqual(app.draftMarkdown, "after the cut", "and back in the draft at quit")
    }

    func testTheAppKeepsACommentWhoseFileWasCutWhileItsAppendWaited() throws {
        let file = try LiveThreadFile(self)
        let app = try file.openApp()
        let lock = try AppendLock(path: file.path)
        lock.release(after: 10)
        type("while it waits\r", into: app)
        let mine = try XCTUnwrap(app.allComments.last)
        XCTAssertEqual(app.unconfirmedComments[mine.id], .sending)
        // Cut (same file, same inode) while the append waits for the lock, then the lock goes.
        XCTAssertEqual(truncate(file.path, 0), 0)
        lock.release()
        XCTAssertTrue(LiveThreadFile.pump(app) { if case .failed = app.unconfirmedComments[mine.id] { true } else { false } }, "the append failed")
        XCTAssertEqual(try size(file.path), 0, "never appended")
        app.keepUnsentInDraft()
        XCTAssertEqual(app.draftMarkdown, "while it waits")
    }
}
