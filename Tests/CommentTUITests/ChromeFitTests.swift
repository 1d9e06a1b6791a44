import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// What the chrome shows when the terminal is narrow or the file has lines that do not read:
/// whole parts given up, text cut with `…`, counts that count what they name.
final class ChromeFitTests: XCTestCase {
    /// A file with three comments and four comment lines that do not read, shown as their problems.
    private func fileWithProblemRows() throws -> String {
        let path = try temporaryDirectory(self).appendingPathComponent("plan.jsonl").path
        let start = ThreadFixture.start
        try ThreadFileWriter(path: path).create([
            .thread(ThreadHeader(id: "t", title: "Plan", author: "u1", created: start, body: "")),
            .user(ThreadFixture.ann), .user(ThreadFixture.bo),
        ] + (1...3).map { .comment(Comment(id: "c\($0)", author: "u2", created: start, body: "comment \($0)")) })
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        for n in 1...4 { try handle.write(contentsOf: Data(#"{"type":"comment","id":"bad\#(n)"}"#.utf8 + [0x0A])) }
        try handle.close()
        return path
    }

    func testTheHeaderCountsTheCommentsNotTheProblemRows() throws {
        let source = try ThreadFileSource(path: try fileWithProblemRows(), environment: [:], follows: false)
        let app = CommentApp(source: source, me: ThreadFixture.ann, columns: 60, rows: 30)
        app.wallTime = ThreadFixture.now
        let pilot = Pilot(app: app, screen: HeadlessScreen(columns: 60, rows: 30))
        pilot.press(.ctrlHome)
        pilot.settle()
        XCTAssertEqual(Array(pilot.lines.prefix(3)), [
            " Plan",
            " Ann @ann · 2025-04-17 10:00 · 3 comments",
            "────────────────────────────────────────────────────────────",
        ])
        XCTAssertEqual(pilot.lines.filter { $0.contains("line ") }.count, 4, "the problem rows show in the feed")
    }

    /// At 50 columns the thread's name is shortened with `…`, and the count stays whole.
    func testANarrowStatusBarNeverCutsTheCount() {
        var fixture = ThreadFixture.numbered(2031)
        fixture.label = "release-planning.jsonl"
        let pilot = fixture.pilot(columns: 50, rows: 12)
        XCTAssertEqual(pilot.lines.last, " @ann · release-planni… · idle · comment 2031/2031")
    }
}
