import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI

/// `check`, `render` and `export` read a thread file's edit and delete records: the author's
/// show, another author's are reported and ignored.
final class CommentChangeVerbTests: XCTestCase {
    private func writeThread() throws -> String {
        let path = try temporaryDirectory(self).appendingPathComponent("t.jsonl").path
        try """
            {"type":"thread","id":"t","title":"Edits","author":"u1","created":"2025-04-17T10:00:00Z","body":"post"}
            {"type":"user","id":"u1","handle":"ann","name":"Ann"}
            {"type":"user","id":"u2","handle":"bo","name":"Bo"}
            {"type":"comment","id":"c1","author":"u1","created":"2025-04-17T10:00:00Z","body":"teh plan"}
            {"type":"comment","id":"c2","author":"u2","created":"2025-04-17T10:30:00Z","body":"bo says"}
            {"type":"edit","comment":"c1","author":"u1","created":"2025-04-17T11:00:00Z","body":"the plan"}
            {"type":"edit","comment":"c2","author":"u1","created":"2025-04-17T11:00:00Z","body":"ann forges"}
            {"type":"delete","comment":"c2","author":"u2","created":"2025-04-17T11:30:00Z"}

            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testCheckReportsAnotherAuthorsEdit() throws {
        let path = try writeThread()
        let run = VerbRun(.check, [path])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.text, """
            \(path):7: edit of comment "c2" by u1, not the comment's author u2, ignored
            \(path): 1 problem, 8 records (2 users, 2 comments)

            """)
    }

    func testRenderShowsTheEditAndTheDeletion() throws {
        let path = try writeThread()
        let run = VerbRun(.render, [path, "--width", "40", "--plain", "--now", "2025-04-17T12:00:00Z"])
        XCTAssertEqual(run.status, 1, "the forged edit is a problem")
        XCTAssertTrue(run.text.contains("   the plan"), run.text)
        XCTAssertTrue(run.text.contains("   (deleted)"), run.text)
        XCTAssertFalse(run.text.contains("teh plan") || run.text.contains("ann forges") || run.text.contains("bo says"), run.text)
        XCTAssertTrue(run.text.split(separator: "\n").contains { $0.contains("Ann") && $0.contains("edited") }, run.text)
        XCTAssertTrue(run.error.contains(#"\#(path):7: edit of comment "c2" by u1"#), run.error)
    }

    func testExportWritesTheCommentsAsTheirChangesLeaveThem() throws {
        let path = try writeThread()
        let run = VerbRun(.export, [path])
        XCTAssertEqual(run.status, 0, run.error)
        XCTAssertTrue(run.text.contains(#"{"type":"comment","id":"c1","author":"u1","created":"2025-04-17T10:00:00Z","body":"the plan","edited":"2025-04-17T11:00:00Z"}"#), run.text)
        XCTAssertTrue(run.text.contains(#"{"type":"comment","id":"c2","author":"u2","created":"2025-04-17T10:30:00Z","body":"(deleted)"}"#), run.text)
        // Read back, the deleted comment is still deleted.
        let copy = try temporaryDirectory(self).appendingPathComponent("copy.jsonl").path
        try run.text.write(toFile: copy, atomically: true, encoding: .utf8)
        XCTAssertEqual(try ThreadFile.read(path: copy).thread.comments.map(\.isDeleted), [false, true])
    }
}
