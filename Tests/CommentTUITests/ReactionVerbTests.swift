import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI

/// `check`, `render` and `export` read a thread file's reaction records: the reactions standing
/// show under their comments, malformed ones are named, and an export reads back the same.
final class ReactionVerbTests: XCTestCase {
    private func writeThread(extra: String = "") throws -> String {
        let path = try temporaryDirectory(self).appendingPathComponent("t.jsonl").path
        try ("""
            {"type":"thread","id":"t","title":"Reactions","author":"u1","created":"2025-04-17T10:00:00Z","body":"post"}
            {"type":"user","id":"u1","handle":"ann","name":"Ann"}
            {"type":"user","id":"u2","handle":"bo","name":"Bo"}
            {"type":"comment","id":"c1","author":"u1","created":"2025-04-17T10:00:00Z","body":"the plan"}
            {"type":"comment","id":"c2","author":"u2","created":"2025-04-17T10:30:00Z","body":"bo says"}
            {"type":"react","comment":"c1","author":"u2","created":"2025-04-17T11:00:00Z","key":"👍"}
            {"type":"react","comment":"c1","author":"u1","created":"2025-04-17T11:01:00Z","key":"👍"}
            {"type":"react","comment":"c1","author":"u2","created":"2025-04-17T11:02:00Z","key":"🎉"}
            {"type":"react","comment":"c2","author":"u1","created":"2025-04-17T11:03:00Z","key":"👀"}
            {"type":"unreact","comment":"c2","author":"u1","created":"2025-04-17T11:04:00Z","key":"👀"}

            """ + extra).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testCheckCountsReactionRecordsAndNamesMalformedOnes() throws {
        let clean = try writeThread()
        let ok = VerbRun(.check, [clean])
        XCTAssertEqual(ok.status, 0, ok.text)
        XCTAssertEqual(ok.text, "\(clean): ok, 10 records (2 users, 2 comments)\n")

        let path = try writeThread(extra: """
            {"type":"react","comment":"c9","author":"u1","created":"2025-04-17T11:05:00Z","key":"👍"}
            {"type":"react","comment":"c1","author":"u1","created":"2025-04-17T11:05:00Z","key":"\\u001b]0;owned\\u0007"}
            {"type":"react","comment":"c1","author":"u1","created":"2025-04-17T11:05:00Z","key":""}

            """)
        let run = VerbRun(.check, [path])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.text, """
            \(path):11: react of comment "c9", which the file does not hold, ignored
            \(path):12: react record: key holds control characters, skipped
            \(path):13: react record: key is empty, skipped
            \(path): 3 problems, 11 records (2 users, 2 comments)

            """)
    }

    func testRenderShowsTheReactionsUnderTheirComments() throws {
        let path = try writeThread(extra: #"{"type":"react","comment":"c9","author":"u1","created":"2025-04-17T11:05:00Z","key":"👍"}"# + "\n")
        let run = VerbRun(.render, [path, "--width", "40", "--plain", "--now", "2025-04-17T12:00:00Z"])
        XCTAssertEqual(run.status, 1, "the reaction to no comment is a problem")
        let lines = run.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let plan = try XCTUnwrap(lines.firstIndex { $0.hasSuffix("the plan") })
        XCTAssertEqual(lines[plan + 1], "   👍 2  🎉 1", run.text)
        let says = try XCTUnwrap(lines.firstIndex { $0.hasSuffix("bo says") })
        XCTAssertEqual(lines[says + 1], "", "a reaction taken back is gone: \(run.text)")
        XCTAssertTrue(run.error.contains(#"\#(path):11: react of comment "c9", which the file does not hold, ignored"#), run.error)
    }

    func testExportWritesTheStandingReactionsAndReadsBackTheSame() throws {
        let path = try writeThread()
        let run = VerbRun(.export, [path])
        XCTAssertEqual(run.status, 0, run.error)
        let reactions = run.text.split(separator: "\n").filter { $0.contains(#""type":"react"#) || $0.contains(#""type":"unreact"#) }
        XCTAssertEqual(reactions, [
            #"{"type":"react","comment":"c1","author":"u2","created":"2025-04-17T11:00:00Z","key":"👍"}"#,
            #"{"type":"react","comment":"c1","author":"u1","created":"2025-04-17T11:01:00Z","key":"👍"}"#,
            #"{"type":"react","comment":"c1","author":"u2","created":"2025-04-17T11:02:00Z","key":"🎉"}"#,
        ], "what stands, no history")
        let copy = try temporaryDirectory(self).appendingPathComponent("copy.jsonl").path
        try run.text.write(toFile: copy, atomically: true, encoding: .utf8)
        let back = try ThreadFile.read(path: copy)
        XCTAssertEqual(back.problems, [])
        let original = try ThreadFile.read(path: path).thread.reactions
        for id in ["c1", "c2"] {
            XCTAssertEqual(back.thread.reactions.counts(of: id, me: "u1"), original.counts(of: id, me: "u1"))
        }
    }
}
