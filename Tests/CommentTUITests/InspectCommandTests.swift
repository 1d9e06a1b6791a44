import Foundation
import XCTest
@testable import CommentTUI

/// `comment-tui inspect`: HTML by default, JSON runs on request, handles from a thread file.
final class InspectCommandTests: XCTestCase {
    func testHTMLFromTheArgumentAndStandardInput() {
        let fromArgument = VerbRun(.inspect, ["**hi** <b>"])
        XCTAssertEqual(fromArgument.status, 0)
        XCTAssertEqual(fromArgument.text, "<p><strong>hi</strong> &lt;b&gt;</p>\n")
        let fromInput = VerbRun(.inspect, [], input: "||x||")
        XCTAssertEqual(fromInput.text, "<p><span class=\"spoiler\">x</span></p>\n")
    }

    func testStandardInputIsReadOnlyToTheLimit() {
        let over = VerbRun(.inspect, [], input: String(repeating: "x", count: (8 << 20) + 1))
        XCTAssertEqual(over.status, 1)
        XCTAssertTrue(over.error.contains("the text on standard input is over the 8 MiB limit; nothing was inspected"), over.error)
        XCTAssertEqual(over.text, "")
    }

    func testJSONRunsWithMentionsFromAThreadFile() throws {
        let file = try temporaryDirectory(self).appendingPathComponent("inspect.jsonl")
        try """
            {"type":"thread","title":"t","author":"u1","created":"2025-04-17T10:00:00Z"}
            {"type":"user","id":"u1","handle":"tatiana","name":"Tatiana B."}

            """.write(to: file, atomically: true, encoding: .utf8)
        let result = VerbRun(.inspect, ["--format", "json", "--thread", file.path, "hi @tatiana"])
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertEqual(result.text, """
            [
              {"text": "hi ", "attributes": {"block": {"index": 0, "quoteDepth": 0, "role": "paragraph"}}},
              {"text": "@tatiana", "attributes": {"block": {"index": 0, "quoteDepth": 0, "role": "paragraph"}, "mention": "u1"}}
            ]

            """)
        let html = VerbRun(.inspect, ["--thread", file.path, "@tatiana @bob"])
        XCTAssertEqual(html.text, "<p><span class=\"mention\" data-user=\"u1\">@tatiana</span> @bob</p>\n")
    }

    func testRubyIsARubyElementAndARubyAttribute() {
        XCTAssertEqual(VerbRun(.inspect, ["{漢字|かんじ}を読む \\{a|b}"]).text, "<p><ruby>漢字<rt>かんじ</rt></ruby>を読む {a|b}</p>\n")
        XCTAssertEqual(VerbRun(.inspect, ["--format", "json", "{字|じ}"]).text, """
            [
              {"text": "字", "attributes": {"block": {"index": 0, "quoteDepth": 0, "role": "paragraph"}, "ruby": "じ"}}
            ]

            """)
    }

    func testBadArgumentsExitWithUsage() {
        XCTAssertEqual(VerbRun(.inspect, ["--format", "xml", "a"]).status, 2)
        XCTAssertEqual(VerbRun(.inspect, ["--thread"]).status, 2)
        let missing = VerbRun(.inspect, ["--thread", "/nonexistent/x.jsonl", "a"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.error.contains("/nonexistent/x.jsonl"), missing.error)
        XCTAssertEqual(VerbRun(.inspect, []).status, 2, "a terminal on stdin is not waited on")
        XCTAssertTrue(VerbRun(.inspect, ["--help"]).text.hasPrefix("Usage: comment-tui inspect"))
    }
}
