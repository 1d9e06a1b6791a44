import Foundation
import XCTest
@testable import ThreadModel
import CommentTUITestSupport

/// A 3 MB comment shown a step at a time in a real terminal, with a person's pauses between the
/// steps (issue 36): each Alt-E lays out 1 MiB more, the feed still scrolls after, and the
/// client quits at once.
final class TmuxShowMoreTests: XCTestCase {
    func testEachAltEWithPausesBetweenShowsAMegabyteMoreAndTheFeedStillScrolls() throws {
        var file: [UInt8] = []
        try ThreadGenerator(comments: 20, users: 4, seed: 3).write { file += $0 }
        var body = ""
        var n = 0
        while body.utf8.count < 3_000_000 {
            n += 1
            body += "line \(n) of a pasted log, kept whole by the writer\n"
        }
        body += "THE END"
        ThreadRecordEncoder().append(.comment(Comment(id: "huge", author: "u2", created: ThreadFixture.start, body: body)), to: &file)
        let tmux = try TmuxSession(columns: 80, rows: 24)
        let path = tmux.home.appendingPathComponent("huge.jsonl").path
        try Data(file).write(to: URL(fileURLWithPath: path))
        let me = try XCTUnwrap(try ThreadIndex.open(path: path).users.first?.handle)
        try tmux.run("\(TmuxSession.clientPath) '\(path)' --as \(me); echo EXIT=$?")
        try tmux.waitFor("the huge comment, cut") { $0.contains { $0.contains("+ more lines") } }

        Thread.sleep(forTimeInterval: 1)
        try tmux.keys("M-Up")
        try tmux.keys("M-e")
        var remaining = try remainingMegabytes(try tmux.waitFor("the first step") { self.remaining(in: $0) != nil })
        XCTAssertGreaterThan(remaining, 2.5)
        for step in 1...2 {
            Thread.sleep(forTimeInterval: 1)
            try tmux.keys("M-e")
            let before = remaining
            let screen = try tmux.waitFor("step \(step) laid out") { screen in
                self.remaining(in: screen).map { $0 <= before - 0.9 } ?? screen.contains { $0.contains("show all") }
            }
            remaining = self.remaining(in: screen) ?? 0
        }
        XCTAssertLessThan(remaining, 1.1, "three steps of 1 MiB shown")

        // After a pause the feed still moves, and Ctrl-C quits at once.
        Thread.sleep(forTimeInterval: 1)
        let shown = try tmux.screen()
        try tmux.keys("PageUp")
        try tmux.waitFor("the feed a page up") { $0 != shown }
        Thread.sleep(forTimeInterval: 1)
        try tmux.keys("C-c")
        try tmux.waitFor("the client to exit") { $0.contains { $0.contains("EXIT=0") } }
    }

    /// The megabytes the `… 2.0 MB more · show 1.0 MB more` row says are left, if one is shown.
    private func remaining(in screen: [String]) -> Double? {
        for row in screen {
            guard let more = row.range(of: " MB more · show") else { continue }
            let number = row[..<more.lowerBound].split(separator: " ").last.map(String.init) ?? ""
            if let value = Double(number) { return value }
        }
        return nil
    }

    private func remainingMegabytes(_ screen: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Double {
        try XCTUnwrap(remaining(in: screen), screen.joined(separator: "\n"), file: file, line: line)
    }
}
