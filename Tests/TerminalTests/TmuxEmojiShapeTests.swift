import Foundation
@testable import ThreadModel
import XCTest
@testable import CommentTUI

/// Emoji clusters the probe of tmux 3.3a sorts by shape: those tmux draws 4 or 1 cells wide
/// (skin tone with a joiner, a text symbol made emoji by VS16) must never take their
/// neighbours, the scrollbar or the next row with them.
final class TmuxEmojiShapeTests: XCTestCase {
    /// The issue's comment: each cluster with letters on both sides.
    static let mixed = "A\u{1F937}\u{1F3FB}\u{200D}\u{2642}\u{FE0F}Bcdef \u{1F441}\u{FE0F}\u{200D}\u{1F5E8}\u{FE0F}Cdefg "
        + "\u{2764}\u{FE0F}\u{200D}\u{1F525}Ddefg \u{1F469}\u{1F3FD}\u{200D}\u{1F4BB}Fdefg |end"
    /// The letters around the clusters, each of which must show.
    static let neighbours = ["A", "Bcdef", "Cdefg", "Ddefg", "Fdefg", "|end"]

    /// A thread of `bodies` after enough plain comments that the feed scrolls (so the scrollbar
    /// shows), dated long ago so headers show fixed dates.
    private func writeThread(_ bodies: [String], in tmux: TmuxSession, filler: Int = 30) throws -> String {
        let path = tmux.home.appendingPathComponent("emoji.jsonl").path
        let start = Date(timeIntervalSince1970: 1_600_000_000)
        var records: [ThreadRecord] = [
            .thread(ThreadHeader(id: "t", title: "Emoji shapes", author: "u1", created: start, body: "")),
            .user(User(id: "u1", handle: "ann", name: "Ann")),
        ]
        let all = (0..<filler).map { "filler comment \($0)" } + bodies
        for (n, body) in all.enumerated() {
            records.append(.comment(Comment(id: "c\(n)", author: "u1", created: start.addingTimeInterval(Double(n) * 60), body: body)))
        }
        let encoder = ThreadRecordEncoder()
        try Data(records.flatMap { encoder.encode($0) }).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The policy the client's probe of this tmux found, once it has kept it.
    private func probedPolicy(_ tmux: TmuxSession) throws -> GraphemePolicy {
        var policy: GraphemePolicy?
        try Waiting.until("the probe's answer to be kept") {
            policy = GraphemePolicyCache(environment: ["HOME": tmux.home.path, "TERM": "tmux-256color"])?.policy()
            return policy != nil
        }
        return policy!
    }

    /// What the client's cell buffer holds for the newest screen of `path` under `policy`.
    private func expectedScreen(path: String, columns: Int, rows: Int, policy: GraphemePolicy) throws -> [String] {
        DisplayWidth.policy = policy
        defer { DisplayWidth.policy = .substitute }
        let target = try OpenCommand.resolve(file: path, handle: "ann", context: .process())
        let app = CommentApp(source: target.source, me: target.me, columns: columns, rows: rows)
        app.wallTime = Date()
        return app.render().buffer.trimmedLines
    }

    /// A row without what follows each joiner. tmux 3.3a draws the character after a joiner in
    /// a cell of its own when one read of the pane's output ends between them: the client then
    /// writes the cluster's neighbours again (so the row keeps its place), but the cluster
    /// shows without its joined parts. That tmux bug is the only difference this forgives.
    static func withoutJoinedParts(_ row: String) -> String {
        var out = String.UnicodeScalarView()
        var joinedNext = false, inJoined = false
        for scalar in row.unicodeScalars {
            if scalar.value == 0x200D { joinedNext = true; continue }
            if joinedNext { (joinedNext, inJoined) = (false, true); continue }
            // The joined character's selector or skin tone.
            if inJoined, scalar.value == 0xFE0F || (0x1F3FB...0x1F3FF).contains(scalar.value) { continue }
            inJoined = false
            out.append(scalar)
        }
        return String(out)
    }

    /// Opens `bodies` in tmux at `columns`x`rows` and waits until the pane equals the client's
    /// own picture (under the policy the probe found); returns both. Rows compare as `comparing`
    /// makes them.
    private func openAndCompare(_ bodies: [String], columns: Int, rows: Int, filler: Int = 30,
                                comparing: (String) -> String = { $0 },
                                file: StaticString = #filePath, line: UInt = #line) throws -> (shown: [String], expected: [String]) {
        let tmux = try TmuxSession(columns: columns, rows: rows)
        let path = try writeThread(bodies, in: tmux, filler: filler)
        try tmux.run("\(TmuxSession.clientPath) \(path) --as ann; echo EXIT=$?")
        try tmux.waitFor("the thread") { $0.contains { $0.contains("filler comment") } }
        let expected = try expectedScreen(path: path, columns: columns, rows: rows, policy: try probedPolicy(tmux))
        var shown: [String] = []
        // tmux takes a frame in 4 KB pieces: wait for the whole (a mismatch then shows row by row).
        _ = try Waiting.poll(timeout: 5) {
            shown = try tmux.screen()
            return shown == expected
        }
        XCTAssertEqual(shown.count, expected.count, "no row spilled into another", file: file, line: line)
        for (row, (pane, buffer)) in zip(shown, expected).enumerated() where comparing(pane) != comparing(buffer) {
            XCTAssertEqual(pane, buffer, "row \(row) (\(columns) columns)", file: file, line: line)
        }
        try tmux.keys("C-c")
        try tmux.waitFor("exit") { $0.contains("EXIT=0") }
        return (shown, expected)
    }

    /// Every fully-qualified emoji of Unicode's emoji-test.txt (beside the unit tests' data).
    static func fullyQualifiedEmoji() throws -> [String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../CommentTUITests/Data/emoji-test.txt").standardized
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line -> String? in
            guard !line.hasPrefix("#"), let semicolon = line.firstIndex(of: ";"),
                  line[semicolon...].contains("fully-qualified") else { return nil }
            let scalars = line[..<semicolon].split(separator: " ").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
            return String(String.UnicodeScalarView(scalars))
        }
    }

    func testEveryEmojiOfEmojiTestShowsWithoutShiftingARow() throws {
        let emoji = try Self.fullyQualifiedEmoji()
        XCTAssertGreaterThan(emoji.count, 3000)
        // Comments of at most 9 rows (a comment collapses beyond 12), each emoji between a
        // space and a bar, so a cluster drawn wider or narrower than laid out moves the bar.
        let columns = 200, budget = 9 * (columns - 10)
        var bodies: [String] = [], body = "", used = 0
        for cluster in emoji {
            let width = max(2, DisplayWidth.width(of: cluster)) + 2
            if used + width > budget { bodies.append(body); body = ""; used = 0 }
            body += "\(cluster)| "
            used += width
        }
        bodies.append(body)
        let bodyRows = bodies.count * 12
        let (shown, expected) = try openAndCompare(bodies.enumerated().map { "set \($0.offset + 1): \($0.element)" },
                                                   columns: columns, rows: bodyRows + 20, filler: 2, comparing: Self.withoutJoinedParts)
        let shifted = zip(shown, expected).filter { Self.withoutJoinedParts($0) != Self.withoutJoinedParts($1) }.count
            + abs(shown.count - expected.count)
        XCTAssertEqual(shifted, 0, "rows that differ from the client's picture")
        for set in 1...bodies.count {
            XCTAssertTrue(expected.contains { $0.contains("set \(set): ") }, "every emoji is on the screen (set \(set))")
        }
    }

    func testMixedClustersKeepTheirNeighboursTheScrollbarAndTheirRows() throws {
        for columns in [100, 40] {
            let (shown, expected) = try openAndCompare([Self.mixed, "after " + Self.mixed], columns: columns, rows: 30)
            let text = shown.joined(separator: "\n")
            for neighbour in Self.neighbours {
                XCTAssertEqual(text.components(separatedBy: neighbour).count - 1, expected.joined(separator: "\n").components(separatedBy: neighbour).count - 1,
                               "\(neighbour) shows as often as the client drew it (\(columns) columns)\n\(text)")
            }
            XCTAssertTrue(text.contains("|end"), text)
            // The scrollbar: the last column of every feed row is the client's (a track or thumb).
            let scrollbar = expected.indices.filter { expected[$0].last == "\u{2502}" || expected[$0].last == "\u{2503}" }
            XCTAssertGreaterThan(scrollbar.count, 10, "the feed scrolls, so it has a scrollbar")
            for row in scrollbar {
                XCTAssertEqual(shown[row].last, expected[row].last, "scrollbar cell of row \(row) (\(columns) columns)")
            }
        }
    }

    func testJoiningMarksWithNothingToJoinLeaveNoGapAndKeepTheirNeighbours() throws {
        // tmux 3.3a measures VS16 and joiner shapes two wide (its probe keeps them): a cluster
        // of bare selectors or joiners is none of those, and is substituted (the selectors
        // dropped, each joiner shown as U+FFFD, a column each).
        let bodies = ["\u{FE0F}\u{FE0F}Abcdef |end1", "\u{200D}\u{200D}Ghijkl |end2", "Plain |end3"]
        let (shown, _) = try openAndCompare(bodies, columns: 60, rows: 30)
        func row(_ marker: String) throws -> String { try XCTUnwrap(shown.first { $0.contains(marker) }, "\(marker) shows\n\(shown.joined(separator: "\n"))") }
        let plain = try row("Plain |end3")
        let indent = plain.prefix { $0 == " " }.count
        for (text, marker) in [("Abcdef |end1", "|end1"), ("Ghijkl |end2", "|end2")] {
            let shownRow = try row(marker)
            let shownText = String(String.UnicodeScalarView(shownRow.unicodeScalars.dropFirst(indent).drop { $0.value == 0xFFFD }))
            XCTAssertEqual(String(shownText.prefix(text.count)), text,
                           "no gap before the text, as in a plain comment: \(shownRow.debugDescription)")
            XCTAssertFalse(shownRow.unicodeScalars.contains { $0.value == 0x3000 || $0.value == 0xFE0F || $0.value == 0x200D }, shownRow.debugDescription)
        }
    }
}
