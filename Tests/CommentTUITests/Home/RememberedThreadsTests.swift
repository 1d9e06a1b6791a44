import Foundation
import XCTest
import ThreadModel
import PlantedFileTestSupport
@testable import CommentTUI

/// The thread files home remembers, and a file thread's row from its read marker.
final class RememberedThreadsTests: XCTestCase {
    private func environment() throws -> [String: String] {
        ["XDG_DATA_HOME": try temporaryDirectory(self).appendingPathComponent("data").path, "HOME": "/nonexistent"]
    }

    func testPathsAreKeptMostRecentFirstAbsoluteAndCapped() throws {
        let remembered = try XCTUnwrap(RememberedThreads(environment: try environment(), limit: 3))
        XCTAssertEqual(try remembered.paths(), [])
        try remembered.add("/t/a.jsonl")
        try remembered.add("/t/b.jsonl")
        try remembered.add("/t/x/../a.jsonl")
        XCTAssertEqual(try remembered.paths(), ["/t/a.jsonl", "/t/b.jsonl"], "opened again: first, once")
        try remembered.add("/t/c.jsonl")
        try remembered.add("/t/d.jsonl")
        XCTAssertEqual(try remembered.paths(), ["/t/d.jsonl", "/t/c.jsonl", "/t/a.jsonl"], "the oldest goes")
        try remembered.remove("/t/c.jsonl")
        try remembered.remove("/t/never.jsonl")
        XCTAssertEqual(try remembered.paths(), ["/t/d.jsonl", "/t/a.jsonl"])
        let relative = "some.jsonl"
        try remembered.add(relative)
        XCTAssertEqual(try remembered.paths().first, FileManager.default.currentDirectoryPath + "/" + relative)
        var status = stat()
        XCTAssertEqual(lstat(remembered.path, &status), 0)
        XCTAssertEqual(status.st_mode & 0o777, 0o600)
        XCTAssertTrue(remembered.path.hasSuffix("/comment-tui/state/remembered-threads.json"), remembered.path)
    }

    func testAMalformedListIsRefusedSayingWhyAndAddStartsANewOne() throws {
        let remembered = try XCTUnwrap(RememberedThreads(environment: try environment()))
        try remembered.add("/t/a.jsonl")
        let folder = try PrivateDirectory(remembered.directory)
        for (text, why) in [("not json", "is not JSON of such a list"),
                            ("{\"version\": 9, \"paths\": []}", "is of version 9; this comment-tui reads version 1")] {
            try folder.replace("remembered-threads.json", with: Array(text.utf8), synchronized: false)
            XCTAssertThrowsError(try remembered.paths()) { error in
                XCTAssertEqual("\(error)", "\(remembered.path) \(why); the threads opened before are not listed")
            }
        }
        try remembered.add("/t/b.jsonl")
        XCTAssertEqual(try remembered.paths(), ["/t/b.jsonl"])
        // Hand-edited: relative paths, duplicates and NUL bytes are dropped, not trusted.
        try folder.replace("remembered-threads.json", with: Array(#"{"version":1,"paths":["/a","rel","/a","/b\u0000c","/c"]}"#.utf8),
                           synchronized: false)
        XCTAssertEqual(try remembered.paths(), ["/a", "/c"])
    }

    func testAPlantedLinkIsRefusedAndReplacedNeverFollowed() throws {
        let remembered = try XCTUnwrap(RememberedThreads(environment: try environment()))
        let victim = try PlantedVictim(at: try temporaryDirectory(self).appendingPathComponent("victim").path)
        try victim.plantLink(at: remembered.path)
        XCTAssertThrowsError(try remembered.paths()) { error in
            XCTAssertTrue("\(error)".contains("is a symbolic link; comment-tui never follows a link"), "\(error)")
        }
        try remembered.add("/t/a.jsonl")
        try victim.assertUntouched()
        XCTAssertEqual(try remembered.paths(), ["/t/a.jsonl"])
    }

    func testAFileThreadsRowCountsTheCommentsAfterItsReadMarker() throws {
        let environment = try environment()
        let thread = try temporaryDirectory(self).appendingPathComponent("plans.jsonl").path
        XCTAssertEqual(VerbRun(.new, [thread, "--title", "Weekend plans", "--as", "ann"], environment: environment).status, 0)
        var summary = try FileThreadSummary.summary(path: thread, environment: environment)
        XCTAssertEqual(summary.key, .file(path: thread))
        XCTAssertEqual(summary.name, "Weekend plans")
        XCTAssertEqual(summary.unread, 0)
        XCTAssertNil(summary.preview)
        for (n, body) in ["one", "two", "three ||the end||"].enumerated() {
            let run = VerbRun(.post, [thread, "--as", "bo", "--name", "Bo", "--body", body], environment: environment,
                              now: Date(timeIntervalSince1970: 1_744_884_000 + Double(n)))
            XCTAssertEqual(run.status, 0, run.error)
        }
        summary = try FileThreadSummary.summary(path: thread, environment: environment)
        XCTAssertEqual(summary.unread, 3, "no marker: every comment is unread")
        XCTAssertEqual(summary.preview, "three ||the end||")
        XCTAssertEqual(summary.author, "Bo")
        XCTAssertEqual(summary.activity, Date(timeIntervalSince1970: 1_744_884_002))
        let files = try XCTUnwrap(ThreadStateFiles(threadPath: thread, environment: environment))
        let first = try ThreadFile.read(path: thread).thread.comments[0]
        try ReadMarker(commentID: first.id, position: 0).save(files)
        XCTAssertEqual(try FileThreadSummary.summary(path: thread, environment: environment).unread, 2)
        XCTAssertThrowsError(try FileThreadSummary.summary(path: thread + ".gone", environment: environment))
    }
}
