import Foundation
import Glibc
import XCTest
@testable import CommentTUI
@testable import ThreadModel

/// The verbs on files that are not thread files, on bodies over the limit, and `render` on a
/// file with problems (issue 22, items 6, 7 and 18).
final class FileSafetyVerbTests: XCTestCase {
    private func newThread() throws -> String {
        let path = try temporaryDirectory(self).appendingPathComponent("t.jsonl").path
        XCTAssertEqual(VerbRun(.new, [path, "--title", "T", "--as", "ann"]).status, 0)
        return path
    }

    func testEveryVerbRefusesAFIFONamingIt() throws {
        let path = try temporaryDirectory(self).appendingPathComponent("fifo.jsonl").path
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        defer {
            // Releases a verb still blocked opening the FIFO (only before the fix).
            let writer = Glibc.open(path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        let runs: [(Verb, [String])] = [
            (.check, [path]), (.render, [path, "--plain"]), (.post, [path, "--as", "ann", "--body", "hi"]), (.export, [path]),
        ]
        for (verb, arguments) in runs {
            let done = expectation(description: "\(verb)")
            nonisolated(unsafe) var run: VerbRun?
            Thread.detachNewThread {
                run = VerbRun(verb, arguments)
                done.fulfill()
            }
            wait(for: [done], timeout: 5)
            guard let run else { continue }
            XCTAssertEqual(run.status, 1, "\(verb)")
            XCTAssertTrue(run.error.contains("\(path): not a regular file but a FIFO (named pipe)"), "\(verb): \(run.error)")
        }
    }

    func testPostRefusesABodyOverOneMebibyte() throws {
        let path = try newThread()
        let limit = 1 << 20
        let over = VerbRun(.post, [path, "--as", "ann"], input: String(repeating: "é", count: limit / 2 + 1))
        XCTAssertEqual(over.status, 1)
        XCTAssertTrue(over.error.contains("the comment is 1048578 bytes, over the 1 MiB (1048576 bytes) limit; nothing was posted"),
                      over.error)
        XCTAssertEqual(try ThreadFile.read(path: path).thread.comments, [])
        let at = VerbRun(.post, [path, "--as", "ann"], input: String(repeating: "x", count: limit))
        XCTAssertEqual(at.status, 0, at.error)
        XCTAssertEqual(try ThreadFile.read(path: path).thread.comments.first?.body.utf8.count, limit)
    }

    func testRenderOfAFileWithProblemsExitsOneAndNamesFileAndLine() throws {
        let path = try temporaryDirectory(self).appendingPathComponent("bad.jsonl").path
        try """
            {"type":"thread","id":"t","title":"T","author":"u1","created":"2025-04-17T10:00:00Z","body":""}
            {"type":"user","id":"u1","handle":"ann","name":"Ann"}
            {"type":"comment","id":"c1","author":"u1","created":"2025-04-17T10:05:00Z","body":"fine"}
            not json at all
            {"type":"comment","id":"c2","author":"u1","created":"yesterday","body":"bad time"}
            {"type":"comment","id":"c3","author":"u9","created":"2025-04-17T10:06:00Z","body":"who?"}

            """.write(toFile: path, atomically: true, encoding: .utf8)
        let run = VerbRun(.render, [path, "--plain", "--now", "2025-04-17T12:00:00Z"])
        XCTAssertEqual(run.status, 1, run.error)
        XCTAssertTrue(run.text.contains("fine"), "what reads is still printed: \(run.text)")
        let lines = run.error.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.map { $0.prefix(path.count + 3) }, ["\(path):4:", "\(path):5:", "\(path):6:"].map { Substring($0) }, run.error)
        XCTAssertTrue(lines.last?.contains("unknown user") == true, run.error)

        let clean = try newThread()
        XCTAssertEqual(VerbRun(.render, [clean, "--plain"]).status, 0)
    }
}
