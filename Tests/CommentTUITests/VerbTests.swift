import Foundation
import XCTest
@testable import CommentTUI
@testable import ThreadModel

final class VerbTests: XCTestCase {
    func testNewThenPostThenReadBack() throws {
        let path = try temporaryDirectory(self).appendingPathComponent("team.jsonl").path
        let new = VerbRun(.new, [path, "--title", "Release 2.4", "--as", "tatiana", "--name", "Tatiana B.", "--body", "Plan"])
        XCTAssertEqual(new.status, 0, new.error)
        let posted = VerbRun(.post, [path, "--as", "TATIANA", "--body", "  Ship it, @marco?\n"])
        XCTAssertEqual(posted.status, 0, posted.error)
        let joined = VerbRun(.post, [path, "--as", "marco", "--name", "Marco Rossi"], input: "From stdin\nsecond line\n")
        XCTAssertEqual(joined.status, 0, joined.error)

        let file = try ThreadFile.read(path: path)
        XCTAssertEqual(file.problems, [])
        XCTAssertEqual(file.thread.title, "Release 2.4")
        XCTAssertEqual(file.thread.body, "Plan")
        XCTAssertEqual(file.thread.comments.map(\.body), ["Ship it, @marco?", "From stdin\nsecond line"])
        XCTAssertEqual(file.thread.comments.map(\.id), [posted.text, joined.text].map { $0.trimmingCharacters(in: .newlines) })
        XCTAssertEqual(file.thread.comments.map { file.thread.displayName(of: $0.author) }, ["Tatiana B.", "Marco Rossi"])
        XCTAssertEqual(file.thread.comments[0].created, Date(timeIntervalSince1970: 1_744_884_000))
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.map { $0.split(separator: ",")[0] }, [#"{"type":"thread""#, #"{"type":"user""#, #"{"type":"comment""#, #"{"type":"user""#, #"{"type":"comment""#])
    }

    func testNewNeverReplacesAFile() throws {
        let path = try temporaryDirectory(self).appendingPathComponent("t.jsonl").path
        XCTAssertEqual(VerbRun(.new, [path, "--title", "A", "--as", "a"]).status, 0)
        let again = VerbRun(.new, [path, "--title", "B", "--as", "b"])
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.error.contains("exists already"), again.error)
        XCTAssertEqual(try ThreadFile.read(path: path).thread.title, "A")
        let badHandle = VerbRun(.new, [path + "2", "--title", "B", "--as", "no spaces"])
        XCTAssertEqual(badHandle.status, 2)
    }

    func testPostRefusesUnknownHandlesTerminalsAndEmptyBodies() throws {
        let path = try temporaryDirectory(self).appendingPathComponent("t.jsonl").path
        XCTAssertEqual(VerbRun(.new, [path, "--title", "A", "--as", "ann"]).status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let unknown = VerbRun(.post, [path, "--as", "bob", "--body", "hi"])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.error.contains("has no user 'bob'") && unknown.error.contains("--name") && unknown.error.contains("ann"), unknown.error)

        let terminal = VerbRun(.post, [path, "--as", "ann"], input: nil)
        XCTAssertEqual(terminal.status, 2)
        XCTAssertTrue(terminal.error.contains("standard input is a terminal"), terminal.error)

        let empty = VerbRun(.post, [path, "--as", "ann"], input: " \n\n")
        XCTAssertEqual(empty.status, 1)
        XCTAssertTrue(empty.error.contains("empty"), empty.error)

        let missing = VerbRun(.post, [path + ".missing", "--as", "ann", "--body", "x"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.error.contains(path + ".missing"), missing.error)

        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "failed posts leave the file alone")
    }

    func testGenerateIsDeterministicPerSeedAndReadsClean() throws {
        let first = VerbRun(.generate, ["--comments", "500", "--users", "40", "--seed", "42"])
        let again = VerbRun(.generate, ["--comments=500", "--users=40", "--seed=42"])
        let other = VerbRun(.generate, ["--comments", "500", "--users", "40", "--seed", "43"])
        XCTAssertEqual(first.status, 0, first.error)
        XCTAssertEqual(first.output, again.output)
        XCTAssertNotEqual(first.output, other.output)

        let file = ThreadFileReader().read(first.output)
        XCTAssertEqual(file.problems, [])
        XCTAssertEqual(file.thread.comments.count, 500)
        XCTAssertEqual(file.thread.users.count, 40)
        let bodies = file.thread.comments.map(\.body)
        for (feature, marker) in [("mentions", "@"), ("spoilers", "||"), ("code", "`"), ("links", "https://"), ("bold", "**")] {
            XCTAssertTrue(bodies.contains { $0.contains(marker) }, feature)
        }
        XCTAssertTrue(bodies.contains { $0.unicodeScalars.contains { (0x3040...0x9FFF).contains($0.value) } }, "CJK")
        XCTAssertTrue(bodies.contains { $0.count > 400 } && bodies.contains { $0.count < 10 }, "long and short")
        XCTAssertTrue(file.thread.comments.contains { $0.edited != nil }, "a few edited")
        XCTAssertEqual(file.thread.comments.map(\.created), file.thread.comments.map(\.created).sorted(), "in time order")
    }

    func testGenerateRejectsBadCounts() {
        for arguments in [["--users", "3"], ["--comments", "x", "--users", "3"], ["--comments", "3", "--users", "0"], ["--comments", "3", "--users", "2", "--seed", "-1"]] {
            let run = VerbRun(.generate, arguments)
            XCTAssertEqual(run.status, 2, "\(arguments)")
            XCTAssertTrue(run.error.contains("Usage: comment-tui generate"), run.error)
            XCTAssertEqual(run.output, [])
        }
    }

    func testImportGitHub() throws {
        let issue = try XCTUnwrap(Bundle.module.url(forResource: "issue", withExtension: "json", subdirectory: "Data/github"))
        let comments = try XCTUnwrap(Bundle.module.url(forResource: "comments", withExtension: "json", subdirectory: "Data/github"))
        let run = VerbRun(.importGitHub, [issue.path, comments.path])
        XCTAssertEqual(run.status, 0, run.error)
        let lines = run.text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, #"{"type":"thread","id":"github-1347","title":"Found a bug","author":"github-octocat","created":"2011-04-22T13:33:48Z","body":"I'm having a problem with this.\r\n\r\nSteps:\r\n1. open `/tmp/x`\r\n2. see \u001b[31mred\u001b[0m"}"#)
        let file = ThreadFileReader().read(run.output)
        XCTAssertEqual(file.problems, [])
        XCTAssertEqual(file.thread.users.map(\.handle).sorted(), ["ghost", "hubot", "octocat"])
        XCTAssertEqual(file.thread.comments.map(\.id), ["github-1", "github-2", "github-3"])
        XCTAssertEqual(file.thread.comments.map { file.thread.user(id: $0.author)?.handle }, ["hubot", "octocat", "ghost"])
        XCTAssertEqual(file.thread.comments[1].body, "@hubot fixed in [#1348](https://github.com/octocat/Hello-World/pull/1348) 🎉")
        XCTAssertEqual(file.thread.comments.map(\.edited), [nil, Timestamp.parse("2011-04-15T10:00:00Z"), nil])
        XCTAssertEqual(file.thread.comments[2].body, "")
    }

    func testImportGitHubAcceptsPaginatedArraysAndReportsBadInput() throws {
        let directory = try temporaryDirectory(self)
        let issue = try XCTUnwrap(Bundle.module.url(forResource: "issue", withExtension: "json", subdirectory: "Data/github"))
        let pages = directory.appendingPathComponent("pages.json")
        let comment = #"{"id":%d,"body":"] [ not a page break","user":{"login":"a"},"created_at":"2020-01-01T00:00:00Z","updated_at":"2020-01-01T00:00:00Z"}"#
        try ("[" + String(format: comment, 1) + "]\n[" + String(format: comment, 2) + "]\n").write(to: pages, atomically: true, encoding: .utf8)
        let run = VerbRun(.importGitHub, [issue.path, pages.path])
        XCTAssertEqual(run.status, 0, run.error)
        XCTAssertEqual(ThreadFileReader().read(run.output).thread.comments.map(\.body), ["] [ not a page break", "] [ not a page break"])

        let broken = directory.appendingPathComponent("broken.json")
        try "{not json".write(to: broken, atomically: true, encoding: .utf8)
        let bad = VerbRun(.importGitHub, [broken.path, pages.path])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.error.contains(broken.path) && bad.error.contains("not valid JSON"), bad.error)
        XCTAssertEqual(VerbRun(.importGitHub, [issue.path]).status, 2)
    }

    func testImportGitHubGivesBotsAHandle() throws {
        let directory = try temporaryDirectory(self)
        let issue = try XCTUnwrap(Bundle.module.url(forResource: "issue", withExtension: "json", subdirectory: "Data/github"))
        let comments = directory.appendingPathComponent("bots.json")
        let comment = #"{"id":%d,"body":"bump","user":{"login":"%@"},"created_at":"2020-01-01T00:00:00Z"}"#
        let logins = ["dependabot[bot]", "dependabot-bot", "github-actions[bot]"]
        let objects = logins.enumerated().map { String(format: comment, $0.offset + 1, $0.element) }
        try ("[" + objects.joined(separator: ",") + "]").write(to: comments, atomically: true, encoding: .utf8)
        let run = VerbRun(.importGitHub, [issue.path, comments.path])
        XCTAssertEqual(run.status, 0, run.error)
        let thread = ThreadFileReader().read(run.output).thread
        let authors = thread.comments.compactMap { thread.user(id: $0.author) }
        XCTAssertEqual(authors.map(\.handle), ["dependabot-bot", "dependabot-bot-2", "github-actions-bot"])
        XCTAssertEqual(authors.map(\.name), ["dependabot[bot]", "dependabot-bot", "github-actions[bot]"])
    }

    func testCheckReportsEveryProblemWithLinesAndEscapesControls() throws {
        let path = try temporaryDirectory(self).appendingPathComponent("t.jsonl").path
        XCTAssertEqual(VerbRun(.new, [path, "--title", "A", "--as", "ann"]).status, 0)
        let clean = VerbRun(.check, [path])
        XCTAssertEqual(clean.status, 0)
        XCTAssertEqual(clean.text, "\(path): ok, 2 records (1 user, 0 comments)\n")

        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("oops\n".utf8))
        handle.write(Data(#"{"type":"comment","id":"c1","author":"evil\u001b[2J","created":"2025-01-01T00:00:00Z","body":"x"}"#.utf8 + [0x0A]))
        handle.write(Data(#"{"type":"comm"#.utf8))
        handle.closeFile()

        let report = VerbRun(.check, [path])
        XCTAssertEqual(report.status, 1)
        let lines = report.text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4, report.text)
        XCTAssertTrue(lines[0].hasPrefix("\(path):3: not valid JSON"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("\(path):4: comment by unknown user \"evil\\u{1B}[2J\""), lines[1])
        XCTAssertTrue(lines[2].hasPrefix("\(path):5: last line has no newline"), lines[2])
        XCTAssertEqual(lines[3], "\(path): 3 problems, 3 records (1 user, 1 comment)")
        XCTAssertFalse(report.output.contains(0x1B), "no raw escape reaches the terminal")

        let missing = VerbRun(.check, [path + ".nope"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.error.contains(path + ".nope"), missing.error)
        XCTAssertEqual(VerbRun(.check, []).status, 2)
    }

    func testEveryVerbHasHelp() {
        for verb in Verb.allCases {
            let run = VerbRun(verb, ["--help"])
            XCTAssertEqual(run.status, 0, verb.rawValue)
            XCTAssertTrue(run.text.hasPrefix("Usage: comment-tui \(verb.rawValue)"), run.text)
            let wrong = VerbRun(verb, ["--no-such-option"])
            XCTAssertEqual(wrong.status, 2, verb.rawValue)
            XCTAssertTrue(wrong.error.contains("unknown option '--no-such-option'"), wrong.error)
        }
    }
}
