import Foundation
import XCTest
@testable import CommentTUI
@testable import ThreadModel

/// `import-github` at scale and on broken input: handles stay valid and unique in linear time,
/// and JSON that does not parse to its end is an error naming the file and byte offset.
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

    // MARK: Markdown GitHub does not have

    /// GitHub shows `a || b`, `||x||` and `{x|y}` as typed; imported, they must not become a
    /// spoiler or ruby, in the issue's body or a comment's.
    func testSpoilerAndRubySyntaxImportsAsTheTextGitHubShows() throws {
        let issue = try write(#"{"number":7,"title":"T","body":"see {x|y}","user":{"login":"a"},"created_at":"2020-01-01T00:00:00Z"}"#,
                              "issue.json")
        let comments = try write("[" + comment(1, login: "b", body: "use a || b, or {x|y}") + ","
                                 + comment(2, login: "b", body: "||not hidden|| and `{x|y}` in code") + "]", "comments.json")
        let run = VerbRun(.importGitHub, [issue, comments])
        XCTAssertEqual(run.status, 0, run.error)
        let thread = ThreadFileReader().read(run.output).thread
        XCTAssertEqual(thread.body, #"see \{x\|y\}"#)
        XCTAssertEqual(thread.comments.map(\.body), [#"use a || b, or \{x\|y\}"#, #"\|\|not hidden\|\| and `{x|y}` in code"#])
        for body in [thread.body] + thread.comments.map(\.body) {
            let runs = CommentMarkup.parseRuns(body, handles: { _ in nil }).runs
            XCTAssertFalse(runs.contains { $0.style.spoiler != nil }, body)
            XCTAssertFalse(runs.contains { $0.style.ruby != nil }, body)
        }

        let path = try write(run.text, "imported.jsonl")
        let render = VerbRun(.render, [path, "--width", "60", "--plain", "--now", "2020-01-02T00:00:00Z"])
        XCTAssertEqual(render.status, 0, render.error)
        for shown in ["see {x|y}", "use a || b, or {x|y}", "||not hidden|| and {x|y} in code"] {
            XCTAssertTrue(render.text.contains(shown), "\(shown) in:\n\(render.text)")
        }
    }

    // MARK: Broken JSON (item 10)

    /// Twenty comments as `gh api` prints them (indented), about 9 KB.
    private func realisticComments(from first: Int = 1, count: Int = 20) -> String {
        let objects = (first..<(first + count)).map { index in
            """
              {
                "id": \(1000 + index),
                "body": "Comment \(index): some text, \\"quoted\\", [brackets] and {braces} 🎉",
                "user": { "login": "user\(index % 7)", "id": \(index) },
                "created_at": "2020-01-0\(1 + index % 9)T00:00:00Z",
                "updated_at": "2020-01-0\(1 + index % 9)T00:00:00Z"
              }
            """
        }
        return "[\n" + objects.joined(separator: ",\n") + "\n]\n"
    }

    private func assertRefused(_ commentsPath: String, mentioning parts: [String], file: StaticString = #filePath, line: UInt = #line) {
        let run = VerbRun(.importGitHub, [issuePath, commentsPath])
        XCTAssertEqual(run.status, 1, "imported \(ThreadFileReader().read(run.output).thread.comments.count) comments", file: file, line: line)
        XCTAssertTrue(run.output.isEmpty, "nothing is written", file: file, line: line)
        XCTAssertTrue(run.error.contains(commentsPath), run.error, file: file, line: line)
        for part in parts { XCTAssertTrue(run.error.contains(part), "\(part) in: \(run.error)", file: file, line: line) }
    }

    func testATruncatedCommentsFileIsAnErrorWithItsOffset() throws {
        let whole = Array(realisticComments().utf8)
        XCTAssertEqual(try importAndCheck(try write(bytes: whole, "whole.json")).comments.count, 20)
        for percent in [99, 90, 50] {
            let cut = whole.count * percent / 100
            let path = try write(bytes: Array(whole[..<cut]), "cut-\(percent).json")
            assertRefused(path, mentioning: ["byte offset \(cut)", "cut short"])
        }
    }

    func testASecondPageCutInHalfIsAnError() throws {
        let first = realisticComments(from: 1), second = Array(realisticComments(from: 21).utf8)
        let whole = try write(bytes: Array(first.utf8) + second, "pages.json")
        XCTAssertEqual(try importAndCheck(whole).comments.count, 40)
        let cut = first.utf8.count + second.count / 2
        let path = try write(bytes: Array(first.utf8) + Array(second[..<(second.count / 2)]), "half.json")
        assertRefused(path, mentioning: ["byte offset \(cut)", "cut short", "byte offset \(first.utf8.count)"])
    }

    func testJunkBetweenPagesIsAnErrorWithItsOffset() throws {
        let page = "[" + comment(1, login: "a") + "]"
        for junk in ["x", ",", "]", "garbage"] {
            let path = try write(page + "\n" + junk + "\n" + page, "junk.json")
            assertRefused(path, mentioning: ["byte offset \(page.utf8.count + 1)"])
        }
        let object = try write(page + comment(2, login: "b"), "object-page.json")
        assertRefused(object, mentioning: ["byte offset \(page.utf8.count)", "object, not an array"])
        assertRefused(try write("", "empty.json"), mentioning: ["empty"])
    }

    func testMessagesNameTheRealProblem() throws {
        let prefix = "[" + comment(1, login: "a") + ",\n"
        let offset = prefix.utf8.count
        let cases: [(bytes: [UInt8], parts: [String])] = [
            (Array(prefix.utf8) + [0xFF] + Array("]".utf8), ["invalid UTF-8", "byte offset \(offset)"]),
            // Inside a string: the bytes before it are a valid `{"id":2,"body":"`.
            (Array((prefix + #"{"id":2,"body":"ok "#).utf8) + [0xC3, 0x28] + Array(#""}]"#.utf8),
             ["invalid UTF-8", "byte offset \(offset + 19)"]),
            (Array(prefix.utf8) + [0x00] + Array("]".utf8), ["NUL", "byte offset \(offset)"]),
            (Array((prefix + #"{"id":2,"body":"a"#).utf8) + [0x00] + Array(#""}]"#.utf8), ["NUL", "byte offset \(offset + 17)"]),
            (Array((prefix + #"{"id":1e999}]"#).utf8), ["1e999", "out of range", "byte offset \(offset + 6)"]),
        ]
        for (index, test) in cases.enumerated() {
            assertRefused(try write(bytes: test.bytes, "case-\(index).json"), mentioning: test.parts)
            let run = VerbRun(.importGitHub, [issuePath, try write(bytes: test.bytes, "again-\(index).json")])
            XCTAssertFalse(run.error.contains("not a JSON array"), run.error)
        }
    }

    func testATruncatedIssueFileIsAnErrorWithItsOffset() throws {
        let issue = try Data(contentsOf: URL(fileURLWithPath: issuePath))
        let cut = issue.count * 90 / 100
        let path = try write(bytes: Array(issue.prefix(cut)), "issue-cut.json")
        let comments = try write("[]", "none.json")
        let run = VerbRun(.importGitHub, [path, comments])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.error.contains(path) && run.error.contains("byte offset \(cut)"), run.error)
        let twice = try write(bytes: Array(issue) + Array(issue), "issue-twice.json")
        let second = VerbRun(.importGitHub, [twice, comments])
        XCTAssertEqual(second.status, 1)
        XCTAssertTrue(second.error.contains("byte offset \(issue.count)"), second.error)
    }

    func testTheParserReadsWhatJSONAllowsAndRefusesDeepNesting() throws {
        let text = #"{"a":"\u00e9\ud83c\udf89\n\"\/","b":[1,-2.5,1E2,true,false,null,{}],"c":"\ud800x"} [] "#
        let values = try JSONStreamParser.values(in: Array(text.utf8))
        XCTAssertEqual(values.map(\.offset), [0, text.utf8.count - 3])
        let object = try XCTUnwrap(values[0].value as? [String: Any])
        XCTAssertEqual(object["a"] as? String, "é🎉\n\"/")
        XCTAssertEqual(object["c"] as? String, "\u{FFFD}x", "a lone surrogate")
        let array = try XCTUnwrap(object["b"] as? [Any])
        XCTAssertEqual(array[0] as? Int, 1)
        XCTAssertEqual(array[1] as? Double, -2.5)
        XCTAssertEqual(array[2] as? Double, 100)
        XCTAssertEqual(array[3] as? Bool, true)
        XCTAssertTrue(array[5] is NSNull)

        let deep = Array(String(repeating: "[", count: 100_000).utf8)
        XCTAssertThrowsError(try JSONStreamParser.values(in: deep)) { error in
            XCTAssertEqual((error as? JSONSyntaxError)?.offset, JSONStreamParser.maximumDepth)
        }
        for (bad, offset) in [("[01]", 1), ("[1.]", 3), (#"["\x"]"#, 3), ("[tru]", 4), ("[1 2]", 3), (#"{"a" 1}"#, 5)] {
            XCTAssertThrowsError(try JSONStreamParser.values(in: Array(bad.utf8)), bad) { error in
                XCTAssertEqual((error as? JSONSyntaxError)?.offset, offset, "\(bad): \(error)")
            }
        }
    }
}
