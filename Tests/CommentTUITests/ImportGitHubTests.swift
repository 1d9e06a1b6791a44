import Foundation
import XCTest
@testable import CommentTUI
@testable import ThreadModel

/// `import-github` at scale: handles stay valid and unique, in linear time.
final class ImportGitHubTests: XCTestCase {
    private var issuePath: String {
        Bundle.module.url(forResource: "issue", withExtension: "json", subdirectory: "Data/github")!.path
    }

    /// A comment object as GitHub's REST API returns it.
    private func comment(_ id: Int, login: String, body: String = "a comment") -> String {
        let escapedLogin = login.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return #"{"id":\#(id),"body":"\#(body)","user":{"login":"\#(escapedLogin)"},"created_at":"2020-01-01T00:00:00Z","updated_at":"2020-01-01T00:00:00Z"}"#
    }

    private func write(_ text: String, _ name: String) throws -> String {
        let url = try temporaryDirectory(self).appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    private func write(bytes: [UInt8], _ name: String) throws -> String {
        let url = try temporaryDirectory(self).appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Imports, then checks the result with `check` as a user would; returns the thread read back.
    private func importAndCheck(_ commentsPath: String, file: StaticString = #filePath, line: UInt = #line) throws -> CommentThread {
        let run = VerbRun(.importGitHub, [issuePath, commentsPath])
        XCTAssertEqual(run.status, 0, run.error, file: file, line: line)
        let output = try temporaryDirectory(self).appendingPathComponent("imported.jsonl")
        try Data(run.output).write(to: output)
        let check = VerbRun(.check, [output.path])
        XCTAssertEqual(check.status, 0, String(check.text.prefix(2000)), file: file, line: line)
        let read = ThreadFileReader().read(run.output)
        XCTAssertEqual(read.problems, [], file: file, line: line)
        return read.thread
    }

    // MARK: Handles (item 9)

    func testThreeThousandLoginsWithOneBaseImportQuicklyWithValidUniqueHandles() throws {
        // Each login has one character outside handles, so all of them make the base `team-bot`;
        // `team-bot-2` is also a real login, taken before the numbering reaches it.
        let logins = ["team-bot-2"] + (0..<3000).map { "team\(Character(Unicode.Scalar(0x4E00 + $0)!))bot" }
        let objects = logins.enumerated().map { comment($0.offset + 1, login: $0.element) }
        let path = try write("[" + objects.joined(separator: ",\n") + "]", "same-base.json")
        let start = ContinuousClock.now
        let thread = try importAndCheck(path)
        let elapsed = ContinuousClock.now - start
        // Quadratic-per-login search took minutes here; linear work takes well under a second.
        XCTAssertLessThan(elapsed, .seconds(20), "3,000 same-base logins took \(elapsed)")

        XCTAssertEqual(thread.comments.count, 3001)
        let users = thread.comments.compactMap { thread.user(id: $0.author) }
        XCTAssertEqual(Set(users.map { $0.handle.lowercased() }).count, 3001, "every login has its own handle")
        XCTAssertTrue(users.allSatisfy { Handle.isValid($0.handle) })
        XCTAssertEqual(users.map(\.name), logins, "the login stays the name")
        XCTAssertEqual(users[0].handle, "team-bot-2")
        XCTAssertEqual(users[1].handle, "team-bot")
        XCTAssertEqual(users[2].handle, "team-bot-3", "team-bot-2 was taken by a real login")
        XCTAssertEqual(users.last?.handle, "team-bot-3001")
    }

    func testLoginsOfFortyAndMoreCharactersGetValidHandles() throws {
        // GitHub logins are at most 39 characters; an export may still carry longer names.
        // 150 of them share their first 39 characters, so numbers reach three digits.
        let long = String(repeating: "x", count: 45)
        let logins = (0..<150).map { "\(long)\($0)" } + [String(repeating: "y", count: 40), "\(long)[bot]"]
        let objects = logins.enumerated().map { comment($0.offset + 1, login: $0.element) }
        let path = try write("[" + objects.joined(separator: ",") + "]", "long.json")
        let thread = try importAndCheck(path)
        let handles = thread.comments.compactMap { thread.user(id: $0.author)?.handle }
        XCTAssertEqual(handles.count, 152)
        XCTAssertEqual(Set(handles.map { $0.lowercased() }).count, 152)
        for handle in handles { XCTAssertTrue(Handle.isValid(handle), "\(handle) (\(handle.count) characters)") }
        XCTAssertEqual(handles[0], String(repeating: "x", count: 39))
        XCTAssertEqual(handles[149], String(repeating: "x", count: 35) + "-150")
        XCTAssertEqual(handles[150], String(repeating: "y", count: 39))
    }
}
