import Foundation
import XCTest
@testable import ThreadModel

/// An append that the disk refuses part-way leaves the thread file as it was (issue 22, item 14).
///
/// A real short write, without root or a tiny file system: `ulimit -f` caps the size of files
/// the process writes (RLIMIT_FSIZE, in 512-byte blocks under sh), and with SIGXFSZ ignored the
/// write past the cap stops short and the next one fails with EFBIG, as a disk filling up does.
final class FailedAppendTests: XCTestCase {
    func testAPostCutShortByTheFileSizeLimitLeavesNoPartialLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("t.jsonl").path
        let new = try run(["new", path, "--title", "Full", "--as", "ann"])
        XCTAssertEqual(new.status, 0, new.error)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertLessThan(before.count, 1024)

        // 1024 bytes allowed: the 3,000-byte comment is cut after the first few hundred.
        let body = String(repeating: "full disk ", count: 300)
        let post = try run(["post", path, "--as", "ann", "--body", body], limit: "ulimit -f 2")
        XCTAssertEqual(post.status, 1, post.error)
        XCTAssertTrue(post.error.contains("cannot post to \(path): write: File too large"), post.error)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "the cut-off record was taken back")
        let check = try run(["check", path])
        XCTAssertEqual(check.status, 0, check.output)

        // The next post, with room, lands on a line of its own.
        let next = try run(["post", path, "--as", "ann", "--body", "after"])
        XCTAssertEqual(next.status, 0, next.error)
        XCTAssertEqual(try ThreadFile.read(path: path).thread.comments.map(\.body), ["after"])
        XCTAssertEqual(try run(["check", path]).status, 0)
    }

    /// Runs the client with `arguments` under `limit` (a shell command run first), SIGXFSZ ignored.
    private func run(_ arguments: [String], limit: String = ":") throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "trap '' XFSZ; \(limit) && exec \"$0\" \"$@\"", TmuxSession.clientPath] + arguments
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
