import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI
import ScrollEngine

/// A big draft's debounced save is encoded and written off the loop's thread (issue 36: the key a
/// save fell due at cost 0.35–0.55 s in a 1 MB draft); forced saves wait for it, and a failure
/// off the loop is said and retried.
final class BigDraftSaveTests: XCTestCase {
    private func open() throws -> (CommentApp, DraftFile) {
        let directory = try temporaryDirectory(self)
        let path = directory.appendingPathComponent("t.jsonl").path
        XCTAssertEqual(VerbRun(.new, [path, "--title", "T", "--as", "ann"]).status, 0)
        let source = try ThreadFileSource(path: path, environment: ["XDG_DATA_HOME": directory.appendingPathComponent("data").path],
                                          follows: false)
        let app = CommentApp(source: source, me: source.thread.user(handle: "ann")!, columns: 60, rows: 12)
        app.wallTime = Date(timeIntervalSince1970: 1_744_884_000)
        return (app, try XCTUnwrap(source.draftFile))
    }

    private func saved(_ file: DraftFile) throws -> String? {
        try file.load().map { try ComposerDocument(decoding: $0).string }
    }

    private let big = String(repeating: "a line of a long draft, pasted whole\n", count: 4_000)  // 148 KB

    func testTheSaveOfABigDraftIsWrittenOffTheLoopAndTheFileEndsWithIt() throws {
        let (app, file) = try open()
        let writer = try XCTUnwrap(app.composer.writer)
        writer.queue.suspend()
        _ = app.update(.paste(big))
        app.advance(to: app.now + 3.0)
        XCTAssertNil(app.composer.saveDue, "the save was handed over")
        XCTAssertNil(try saved(file), "nothing was written on the loop's thread")
        writer.queue.resume()
        XCTAssertNil(writer.finish())
        XCTAssertEqual(try saved(file), big)

        // A small draft after it is saved here, after the big one: the file ends with the newest.
        writer.queue.suspend()
        _ = app.update(.paste(big))
        app.advance(to: app.now + 3.0)
        app.composer.replaceAll(withEdited: "short", handles: { _ in nil })
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { writer.queue.resume() }
        app.advance(to: app.now + 3.0)
        XCTAssertEqual(try saved(file), "short")
    }

    func testQuittingWaitsForTheSaveInFlight() throws {
        let (app, file) = try open()
        let writer = try XCTUnwrap(app.composer.writer)
        writer.queue.suspend()
        _ = app.update(.paste(big))
        app.advance(to: app.now + 3.0)
        _ = app.update(.paste("and the last words"))
        // The writer is held up a while; the exit waits for it, then saves the newest draft.
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { writer.queue.resume() }
        XCTAssertNil(app.prepareToExit())
        XCTAssertEqual(try saved(file), big + "and the last words")
    }

    func testASaveThatFailsOffTheLoopIsSaidAndTriedAgain() throws {
        let (app, file) = try open()
        // A directory where the draft goes: the replace is refused.
        try FileManager.default.createDirectory(atPath: file.path, withIntermediateDirectories: true)
        _ = app.update(.paste(big))
        app.advance(to: app.now + 3.0)
        app.composer.writer?.queue.sync {}  // the save ran, and failed
        app.advance(to: app.now + 0.1)
        XCTAssertEqual(app.message, "draft not saved (kept in memory): \(file.path): is a directory, not a regular file")
        try FileManager.default.removeItem(atPath: file.path)
        app.advance(to: app.now + ComposerModel.saveRetry + 0.1)
        XCTAssertNil(app.composer.writer?.finish())
        XCTAssertEqual(try saved(file), big, "saved on the next try")
    }
}
