import Foundation
@testable import ThreadModel
import XCTest
@testable import CommentTUI

/// Issue 36: comments made of long runs of flag emoji (regional indicators) cost their length
/// squared to lay out: twenty 64 KB ones kept the client from its first screen for most of a
/// minute, and again after each resize, and `render` of a 480 KB one took minutes. Laid out in
/// linear time, they show well within the wait (generous: a loaded machine, a debug build; before,
/// a release build took 50 s to open and minutes to render).
final class TmuxFlagRunTests: XCTestCase {
    private let countries = ["🇫🇷", "🇩🇪", "🇯🇵", "🇺🇸", "🇧🇷", "🇮🇳", "🇨🇦", "🇳🇬"]

    /// A thread of `comments` comments, each `flagsN ` then `flags` flags in one run.
    private func writeFlagThread(comments: Int, flags: Int, in directory: URL, name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        let start = Date(timeIntervalSince1970: 1_600_000_000)
        var records: [ThreadRecord] = [
            .thread(ThreadHeader(id: "t", title: "Flags", author: "u1", created: start, body: "")),
            .user(User(id: "u1", handle: "ann", name: "Ann")),
        ]
        let run = (0..<flags).map { countries[$0 % countries.count] }.joined()
        for n in 0..<comments {
            records.append(.comment(Comment(id: "c\(n)", author: "u1", created: start.addingTimeInterval(Double(n) * 60),
                                            body: "flags\(n) " + run)))
        }
        let encoder = ThreadRecordEncoder()
        try Data(records.flatMap { encoder.encode($0) }).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The `N` of a collapsed comment's `… N more lines` on the screen, if one shows.
    private func hiddenLines(_ screen: [String]) -> Int? {
        for row in screen {
            guard let marker = row.range(of: " more lines") else { continue }
            let digits = row[..<marker.lowerBound].reversed().prefix { $0.isNumber }
            if let count = Int(String(digits.reversed())) { return count }
        }
        return nil
    }

    func testTwentyLongFlagCommentsOpenAndResizeWithinAWait() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        // 8,000 flags (64,000 bytes, what the feed lays out of a body) a comment.
        let path = try writeFlagThread(comments: 20, flags: 8_000, in: tmux.home, name: "flags.jsonl")
        try tmux.run("\(TmuxSession.clientPath) \(path) --as ann; echo EXIT=$?")
        // 76 columns of body: 38 flags a row, 211 rows less the 12 shown.
        let opened = try tmux.waitFor("the newest flag comment", timeout: 30) { screen in
            screen.contains { $0.contains("flags19") } && hiddenLines(screen) != nil
        }
        XCTAssertEqual(hiddenLines(opened).map { (190...210).contains($0) }, true, opened.joined(separator: "\n"))
        // At 60 columns (56 of body: 28 flags a row) the same comment has 286 rows.
        try tmux.tmux(["resize-window", "-t", "0", "-x", "60", "-y", "24"])
        let resized = try tmux.waitFor("the comments laid out at 60 columns", timeout: 30) { screen in
            screen.contains { $0.contains("flags19") } && (hiddenLines(screen) ?? 0) > 250
        }
        XCTAssertTrue(resized.allSatisfy { $0.count <= 60 }, resized.joined(separator: "\n"))
        try tmux.keys("C-c")
        try tmux.waitFor("exit") { $0.contains("EXIT=0") }
    }

    func testRenderPrintsALongFlagCommentWithinAWait() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        // 60,000 flags: 480 KB, under the 1 MiB `render` prints of a body.
        let path = try writeFlagThread(comments: 1, flags: 60_000, in: tmux.home, name: "render.jsonl")
        try tmux.run("\(TmuxSession.clientPath) render \(path) --width 80 --plain | wc -l; echo EXIT=$?")
        let done = try tmux.waitFor("render to finish", timeout: 30) { $0.contains("EXIT=0") }
        // 76 columns of body: 38 flags a row, 1,579 rows of flags; the header and the post above.
        let count = done.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.first
        XCTAssertEqual(count.map { (1_580...1_620).contains($0) }, true, done.joined(separator: "\n"))
    }
}
