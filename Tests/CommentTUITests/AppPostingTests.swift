import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

final class AppPostingTests: XCTestCase {
    /// The client on the thread file at `path`, as ann.
    private func openFile(_ path: String) throws -> CommentApp {
        let source = try ThreadFileSource(path: path, environment: [:], follows: false)
        return CommentApp(source: source, me: source.thread.user(handle: "ann")!, columns: 40, rows: 12)
    }

    private func type(_ text: String, into app: CommentApp, at time: Date = Date(timeIntervalSince1970: 1_744_884_000.7)) {
        var decoder = InputDecoder()
        for event in decoder.feed(Array(text.utf8)) { _ = app.handle(event, wallClock: time) }
    }

    func testSendAppendsToTheFile() throws {
        let path = try temporaryDirectory(self).appendingPathComponent("t.jsonl").path
        XCTAssertEqual(VerbRun(.new, [path, "--title", "T", "--as", "ann"]).status, 0)
        let app = try openFile(path)
        type("hello file\r", into: app)
        XCTAssertEqual(app.draft, "")
        XCTAssertEqual(app.message, "posted")
        let file = try ThreadFile.read(path: path)
        XCTAssertEqual(file.thread.comments, app.allComments, "what is on screen is what is on disk")
        XCTAssertEqual(file.thread.comments.map(\.body), ["hello file"])
        XCTAssertEqual(file.thread.comments.first?.created, Date(timeIntervalSince1970: 1_744_884_000))
    }

    func testAFailedPostKeepsTheDraftAndShowsTheError() throws {
        let directory = try temporaryDirectory(self)
        let path = directory.appendingPathComponent("t.jsonl").path
        XCTAssertEqual(VerbRun(.new, [path, "--title", "T", "--as", "ann"]).status, 0)
        let app = try openFile(path)
        try FileManager.default.removeItem(atPath: path)  // the next append cannot open the file
        type("keep me\r", into: app)
        XCTAssertEqual(app.draft, "keep me")
        XCTAssertTrue(app.messageIsError)
        XCTAssertTrue(app.message?.contains("not sent") == true && app.message?.contains(path) == true, app.message ?? "")
        XCTAssertEqual(app.allComments, [])
    }
}
