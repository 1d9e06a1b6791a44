import Foundation
import XCTest
@testable import ThreadModel

/// The built binary's `post` verb from two processes at once, and the verbs' exit statuses.
final class ConcurrentPostTests: XCTestCase {
    private func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("posts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// Runs a shell script with the client's path in $CLIENT; returns (status, stdout, stderr).
    @discardableResult
    private func shell(_ script: String, start: Bool = false) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.environment = ["CLIENT": TmuxSession.clientPath, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        try process.run()
        return process
    }

    func testTwoProcessesPostingAtOnceLoseNothing() throws {
        let path = try directory().appendingPathComponent("t.jsonl").path
        let setup = try shell(#""$CLIENT" new "\#(path)" --title Race --as ann && "$CLIENT" post "\#(path)" --as bob --name Bob --body hi >/dev/null"#)
        setup.waitUntilExit()
        XCTAssertEqual(setup.terminationStatus, 0)
        // Each writer posts numbered comments, one process per comment; they race for the lock.
        // (150 each: a process per post costs ~15 ms; ThreadFileTests appends 1,000 each from two descriptors.)
        let writers = try ["ann", "bob"].map { handle in
            try shell(#"i=1; while [ $i -le 150 ]; do "$CLIENT" post "\#(path)" --as \#(handle) --body "\#(handle) $i" >/dev/null || exit 1; i=$((i+1)); done"#)
        }
        for writer in writers {
            writer.waitUntilExit()
            XCTAssertEqual(writer.terminationStatus, 0)
        }
        let file = try ThreadFile.read(path: path)
        XCTAssertEqual(file.problems, [])
        XCTAssertEqual(file.pendingBytes, 0)
        XCTAssertEqual(file.thread.comments.count, 301)
        XCTAssertEqual(Set(file.thread.comments.map(\.id)).count, 301, "ids are unique across writers")
        for handle in ["ann", "bob"] {
            let numbers = file.thread.comments.map(\.body).filter { $0.hasPrefix("\(handle) ") }.map { Int($0.dropFirst(handle.count + 1))! }
            XCTAssertEqual(numbers, Array(1...150), "\(handle)'s comments are all there, in order")
        }
    }

    func testAnEndlessPipeIsRefusedAtTheLimitWithoutReadingItAll() throws {
        let directory = try directory()
        let path = directory.appendingPathComponent("t.jsonl").path, errors = directory.appendingPathComponent("err").path
        // `yes` never ends: post must stop reading past the limit, say so and post nothing.
        let post = try shell(#""$CLIENT" new "\#(path)" --title Pipe --as ann && yes 'endless line' | "$CLIENT" post "\#(path)" --as ann 2>"\#(errors)""#)
        let ended = try Waiting.poll(timeout: 20) { !post.isRunning }
        if !ended { post.terminate() }
        XCTAssertTrue(ended, "post returned")
        post.waitUntilExit()
        XCTAssertEqual(post.terminationStatus, 1)
        XCTAssertEqual(try String(contentsOfFile: errors, encoding: .utf8),
                       "comment-tui post: the comment on standard input is over the 1 MiB limit; nothing was posted\n")
        XCTAssertEqual(try ThreadFile.read(path: path).thread.comments, [])
    }

    func testVerbsFromTheShell() throws {
        let path = try directory().appendingPathComponent("t.jsonl").path
        let script = #"""
        "$CLIENT" generate --comments 50 --users 5 --seed 9 > "\#(path)" || exit 10
        "$CLIENT" check "\#(path)" > /dev/null || exit 11
        printf 'piped body' | "$CLIENT" post "\#(path)" --as nobody --name "No Body" > /dev/null || exit 12
        "$CLIENT" post "\#(path)" --as ghost --body x 2>/dev/null && exit 13
        printf 'junk\n' >> "\#(path)"
        "$CLIENT" check "\#(path)" > /dev/null && exit 14
        "$CLIENT" --version | grep -q '^comment-tui ' || exit 15
        "$CLIENT" no-such-file.jsonl 2>/dev/null && exit 16
        exit 0
        """#
        let process = try shell(script)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "the step with this code failed")
        let file = try ThreadFile.read(path: path)
        XCTAssertEqual(file.thread.comments.count, 51)
        XCTAssertEqual(file.thread.comments.last?.body, "piped body")
        XCTAssertEqual(file.problems.map(\.line), [59])
    }
}
