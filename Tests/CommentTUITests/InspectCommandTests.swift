import Foundation
import XCTest
@testable import CommentTUI

/// `comment-tui inspect`: HTML by default, JSON runs on request, handles from a thread file.
final class InspectCommandTests: XCTestCase {
    func testHTMLFromTheArgumentAndStandardInput() {
        let fromArgument = InspectCommand.outcome(["**hi** <b>"], standardInput: { XCTFail("stdin read"); return "" })
        XCTAssertEqual(fromArgument.status, 0)
        XCTAssertEqual(fromArgument.output, "<p><strong>hi</strong> &lt;b&gt;</p>\n")
        let fromInput = InspectCommand.outcome([], standardInput: { "||x||" })
        XCTAssertEqual(fromInput.output, "<p><span class=\"spoiler\">x</span></p>\n")
    }

    func testJSONRunsWithMentionsFromAThreadFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString).jsonl")
        try """
            {"type":"thread","title":"t"}
            {"type":"user","id":"u1","handle":"tatiana","name":"Tatiana B."}
            not json at all
            """.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = InspectCommand.outcome(["--format", "json", "--thread", file.path, "hi @tatiana"], standardInput: { "" })
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.output, """
            [
              {"text": "hi ", "attributes": {"block": {"index": 0, "quoteDepth": 0, "role": "paragraph"}}},
              {"text": "@tatiana", "attributes": {"block": {"index": 0, "quoteDepth": 0, "role": "paragraph"}, "mention": "u1"}}
            ]

            """)
        let html = InspectCommand.outcome(["--thread", file.path, "@tatiana @bob"], standardInput: { "" })
        XCTAssertEqual(html.output, "<p><span class=\"mention\" data-user=\"u1\">@tatiana</span> @bob</p>\n")
    }

    func testBadArgumentsExitWithUsage() {
        XCTAssertEqual(InspectCommand.outcome(["--format", "xml", "a"], standardInput: { "" }).status, 2)
        XCTAssertEqual(InspectCommand.outcome(["--thread"], standardInput: { "" }).status, 2)
        XCTAssertEqual(InspectCommand.outcome(["--thread", "/nonexistent/x.jsonl", "a"], standardInput: { "" }).status, 2)
        XCTAssertTrue(InspectCommand.outcome(["--help"], standardInput: { "" }).output.hasPrefix("usage: comment-tui inspect"))
    }
}
