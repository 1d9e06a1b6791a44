import Foundation
import XCTest
@testable import ThreadModel
import ScrollEngine
@testable import CommentTUI
import CommentTUITestSupport

/// A `kill -9` between the append and the draft's deletion must not bring the sent comment's
/// draft back (issue 22, item 13). The kill is replayed exactly: the draft file is put back as it
/// was on disk at the moment the comment reached the thread file, and the thread is reopened.
final class SentDraftTests: XCTestCase {
    private func open(_ path: String, data: String) throws -> CommentApp {
        let source = try ThreadFileSource(path: path, environment: ["XDG_DATA_HOME": data], follows: false)
        let app = CommentApp(source: source, me: source.thread.user(handle: "ann")!, columns: 40, rows: 12)
        app.wallTime = Date(timeIntervalSince1970: 1_744_884_000)
        return app
    }

    private func type(_ text: String, into app: CommentApp) {
        var decoder = InputDecoder()
        for event in decoder.feed(Array(text.utf8)) + decoder.flush() { _ = app.handle(event) }
    }

    /// Sends "hello file" from a saved draft; returns the draft file's bytes as they were on disk
    /// when the comment landed in the thread file (what a kill at that moment leaves).
    private func sendAndCaptureTheDraftAtTheAppend(path: String, data: String) throws -> Data {
        let app = try open(path, data: data)
        type("hello file", into: app)
        app.advance(to: app.now + 1)  // the draft is saved
        var onDisk: Data?
        let save = try XCTUnwrap(app.composer.save)
        app.composer.save = { bytes in
            // Every write of the draft file while the thread file has no comment yet: the last
            // one is what the disk held when the append happened.
            if try ThreadFile.read(path: path).thread.comments.isEmpty { onDisk = bytes }
            try save(bytes)
        }
        let draftPath = try XCTUnwrap((app.source as? ThreadFileSource)?.draftFile?.path)
        let saved = try XCTUnwrap(FileManager.default.contents(atPath: draftPath), "the draft was saved before sending")
        type("\r", into: app)
        XCTAssertEqual(app.message, "posted")
        XCTAssertEqual(try ThreadFile.read(path: path).thread.comments.map(\.body), ["hello file"])
        XCTAssertNil(FileManager.default.contents(atPath: draftPath), "a sent draft is deleted")
        return onDisk ?? saved
    }

    func testADraftWhoseCommentReachedTheFileIsDroppedOnReopen() throws {
        let directory = try temporaryDirectory(self)
        let path = directory.appendingPathComponent("t.jsonl").path
        let data = directory.appendingPathComponent("data").path
        XCTAssertEqual(VerbRun(.new, [path, "--title", "T", "--as", "ann"]).status, 0)
        let atTheKill = try sendAndCaptureTheDraftAtTheAppend(path: path, data: data)

        // The kill: the draft file is as it was when the comment reached the file.
        let draftFile = try XCTUnwrap(try ThreadFileSource(path: path, environment: ["XDG_DATA_HOME": data], follows: false).draftFile)
        try draftFile.save(atTheKill)
        let reopened = try open(path, data: data)
        XCTAssertEqual(reopened.composer.draft.string, "", "the sent comment's draft came back")
        XCTAssertNil(try draftFile.load(), "the stale draft is removed")
        XCTAssertEqual(reopened.allComments.map(\.body), ["hello file"])
    }

    func testADraftWhoseCommentNeverReachedTheFileIsRestored() throws {
        let directory = try temporaryDirectory(self)
        let path = directory.appendingPathComponent("t.jsonl").path
        let other = directory.appendingPathComponent("other.jsonl").path
        let data = directory.appendingPathComponent("data").path
        XCTAssertEqual(VerbRun(.new, [path, "--title", "T", "--as", "ann"]).status, 0)
        XCTAssertEqual(VerbRun(.new, [other, "--title", "Other", "--as", "ann"]).status, 0)
        let atTheKill = try sendAndCaptureTheDraftAtTheAppend(path: path, data: data)

        // The same draft beside a thread where that comment never arrived (killed before the append).
        let draftFile = try XCTUnwrap(try ThreadFileSource(path: other, environment: ["XDG_DATA_HOME": data], follows: false).draftFile)
        try draftFile.save(atTheKill)
        let reopened = try open(other, data: data)
        XCTAssertEqual(reopened.composer.draft.string, "hello file")
        XCTAssertEqual(reopened.message, "draft restored")
        type("\r", into: reopened)
        XCTAssertEqual(try ThreadFile.read(path: other).thread.comments.map(\.body), ["hello file"], "and it sends")
    }
}
