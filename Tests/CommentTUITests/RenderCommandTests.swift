import Foundation
import XCTest
@testable import CommentTUI

/// `comment-tui render`: the thread as the client lays it out, plain or with ANSI styles.
final class RenderCommandTests: XCTestCase {
    private func writeThread() throws -> String {
        let path = try temporaryDirectory(self).appendingPathComponent("r.jsonl").path
        let long = (1...14).map { "row \($0)" }.joined(separator: "\\\\\\n")
        try """
            {"type":"thread","id":"t","title":"Render \\u001b[2J me","author":"u1","created":"2025-04-17T10:00:00Z","body":""}
            {"type":"user","id":"u1","handle":"ann","name":"Ann"}
            {"type":"user","id":"u2","handle":"bo","name":"Bo"}
            {"type":"comment","id":"c1","author":"u2","created":"2025-04-17T10:05:00Z","body":"**hi** @ann ||secret|| [docs](https://example.com/x)"}
            {"type":"comment","id":"c2","author":"u1","created":"2025-04-17T11:00:00Z","body":"\(long)"}

            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testPlainOutputIsTheClientsLayoutWithRepeatableTimes() throws {
        let path = try writeThread()
        let run = VerbRun(.render, [path, "--width", "40", "--plain", "--now", "2025-04-17T12:00:00Z"])
        XCTAssertEqual(run.status, 0, run.error)
        XCTAssertEqual(run.text, """
             Render ␛[2J me
             Ann @ann · 2025-04-17 10:00
            ────────────────────────────────────────
             Bo @bo · 1h ago
               hi @ann ░░░░░░ docs (example.com)

             Ann @ann · 1h ago
               row 1
               row 2
               row 3
               row 4
               row 5
               row 6
               row 7
               row 8
               row 9
               row 10
               row 11
               row 12
               row 13
               row 14


            """, "a long comment prints whole: a print has nothing to click")
    }

    func testThePostPrintsWholeToItsLastLine() throws {
        let path = try temporaryDirectory(self).appendingPathComponent("post.jsonl").path
        let body = (1...40).map { "post line \($0)" }.joined(separator: "\\n")
        try """
            {"type":"thread","id":"t","title":"Long post","author":"u1","created":"2025-04-17T10:00:00Z","body":"\(body)"}
            {"type":"user","id":"u1","handle":"ann","name":"Ann"}

            """.write(toFile: path, atomically: true, encoding: .utf8)
        let run = VerbRun(.render, [path, "--width", "40", "--plain", "--now", "2025-04-17T12:00:00Z"])
        XCTAssertEqual(run.status, 0, run.error)
        let lines = run.text.components(separatedBy: "\n")
        guard lines.count > 42 else { return XCTFail("the post is cut short:\n" + run.text) }
        XCTAssertEqual(Array(lines.prefix(3)), [" Long post", " Ann @ann · 2025-04-17 10:00", " post line 1"])
        XCTAssertEqual(lines[41], " post line 40", run.text)
        XCTAssertEqual(lines[42], String(repeating: "─", count: 40))
        XCTAssertFalse(run.text.contains("more line"))
    }

    func testABodyPastWhatRenderLaysOutEndsCountingTheRest() throws {
        let path = try temporaryDirectory(self).appendingPathComponent("huge.jsonl").path
        // 1 MiB and 300 KB more, in lines: the first MiB prints, the rest is counted.
        let line = String(repeating: "w", count: 99) + "\\n"
        let body = String(repeating: line, count: (FeedLayout.printedBodyBytes + 300_000) / 100)
        try """
            {"type":"thread","id":"t","title":"Huge","author":"u1","created":"2025-04-17T10:00:00Z","body":""}
            {"type":"user","id":"u1","handle":"ann","name":"Ann"}
            {"type":"comment","id":"c1","author":"u1","created":"2025-04-17T11:00:00Z","body":"\(body)end"}

            """.write(toFile: path, atomically: true, encoding: .utf8)
        let run = VerbRun(.render, [path, "--width", "120", "--plain", "--now", "2025-04-17T12:00:00Z"])
        XCTAssertEqual(run.status, 0, run.error)
        let lines = run.text.components(separatedBy: "\n")
        XCTAssertEqual(lines.filter { $0.hasSuffix("w") }.count, FeedLayout.printedBodyBytes / 100)
        // The comment's last rows, its gap row, then the end of the output.
        XCTAssertEqual(Array(lines.suffix(3)), ["   … 301 KB more, not printed", "", ""], lines.suffix(4).map { String($0.suffix(40)) }.joined(separator: "\n"))
    }

    func testPlainOutputPrintsRubyReadingsOnTheRowAboveTheirBase() throws {
        let path = try temporaryDirectory(self).appendingPathComponent("ruby.jsonl").path
        try #"""
            {"type":"thread","id":"t","title":"Ruby","author":"u1","created":"2025-04-17T10:00:00Z","body":""}
            {"type":"user","id":"u1","handle":"ann","name":"Ann"}
            {"type":"comment","id":"c1","author":"u1","created":"2025-04-17T11:00:00Z","body":"今日は{東京|とうきょう}で{日本語|にほんご}を話す"}
            {"type":"comment","id":"c2","author":"u1","created":"2025-04-17T11:00:00Z","body":"no ruby, \\{a|b} stays"}

            """#.write(toFile: path, atomically: true, encoding: .utf8)
        let run = VerbRun(.render, [path, "--width", "30", "--plain", "--now", "2025-04-17T12:00:00Z"])
        XCTAssertEqual(run.status, 0, run.error)
        XCTAssertEqual(run.text, """
             Ruby
             Ann @ann · 2025-04-17 10:00
            ──────────────────────────────
             Ann @ann · 1h ago
                     とうきょう  にほんご
               今日は   東京   で 日本語
               を話す

             Ann @ann · 1h ago
               no ruby, {a|b} stays


            """)
    }

    /// The header counts the comments, not the lines shown as problems, and a narrow header
    /// gives up the count, then the date, whole.
    func testTheHeaderCountsCommentsAndDropsWholePartsWhenNarrow() throws {
        let path = try temporaryDirectory(self).appendingPathComponent("bad.jsonl").path
        let bad = (1...4).map { #"{"type":"comment","id":"bad\#($0)"}"# }.joined(separator: "\n")
        try """
            {"type":"thread","id":"t","title":"Plan","author":"u1","created":"2025-11-24T04:05:00Z","body":""}
            {"type":"user","id":"u1","handle":"ann","name":"Ann A"}
            {"type":"comment","id":"c1","author":"u1","created":"2025-11-24T04:06:00Z","body":"one"}
            {"type":"comment","id":"c2","author":"u1","created":"2025-11-24T04:07:00Z","body":"two"}
            {"type":"comment","id":"c3","author":"u1","created":"2025-11-24T04:08:00Z","body":"three"}
            \(bad)

            """.write(toFile: path, atomically: true, encoding: .utf8)
        let header = { (width: Int) in
            VerbRun(.render, [path, "--width", "\(width)", "--plain"]).text.split(separator: "\n").prefix(2).joined(separator: "\n")
        }
        XCTAssertEqual(header(50), " Plan\n Ann A @ann · 2025-11-24 04:05 · 3 comments")
        XCTAssertEqual(header(40), " Plan\n Ann A @ann · 2025-11-24 04:05")
        XCTAssertEqual(header(30), " Plan\n Ann A @ann")
        let check = VerbRun(.check, [path])
        XCTAssertTrue(check.text.hasSuffix(": 4 problems, 5 records (1 user, 3 comments)\n"), check.text)
    }

    func testANSIOutputStylesButNeverPassesContentEscapes() throws {
        let path = try writeThread()
        let run = VerbRun(.render, [path, "--width", "60", "--now", "2025-04-17T12:00:00Z"])
        XCTAssertEqual(run.status, 0, run.error)
        XCTAssertTrue(run.text.contains("\u{1B}[0;1mhi"), run.text)
        XCTAssertTrue(run.text.contains("␛[2J"))
        XCTAssertFalse(run.text.contains("\u{1B}[2J"))
    }

    /// With NO_COLOR the styles keep their attributes and lose their colours.
    func testANSIOutputHasNoColourWithNoColor() throws {
        let path = try writeThread()
        let coloured = VerbRun(.render, [path, "--width", "60", "--now", "2025-04-17T12:00:00Z"])
        XCTAssertTrue(coloured.text.contains("\u{1B}[0;1;36mBo"), coloured.text)
        let run = VerbRun(.render, [path, "--width", "60", "--now", "2025-04-17T12:00:00Z"], environment: ["NO_COLOR": "1"])
        XCTAssertEqual(run.status, 0, run.error)
        XCTAssertTrue(run.text.contains("\u{1B}[0;1mBo"), run.text)
        let parameters = run.text.split(separator: "\u{1B}").dropFirst().map { $0.dropFirst().prefix { $0 != "m" } }
        XCTAssertFalse(parameters.contains { $0.split(separator: ";").contains { $0.count > 1 } }, "a colour in \(run.text)")
    }

    func testBadArguments() throws {
        let path = try writeThread()
        XCTAssertEqual(VerbRun(.render, [path, "--width", "5"]).status, 2)
        XCTAssertEqual(VerbRun(.render, [path, "--now", "yesterday"]).status, 2)
        let missing = VerbRun(.render, ["/nonexistent/t.jsonl"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.error.contains("/nonexistent/t.jsonl"))
    }
}
