import Foundation
@testable import ThreadModel
import XCTest
@testable import CommentTUI

/// What the terminal shows is what the cell buffer holds: tricky clusters, partial updates, Ctrl-L.
final class TmuxRenderTests: XCTestCase {
    /// Comments full of clusters that terminals and layouts disagree on, dated long ago so
    /// headers show fixed dates.
    static let trickyBodies = [
        "CJK 日本語のテキストと한국어 mixed with ascii, wrapping at the edge 漢字漢字漢字漢字漢字",
        "family 👨‍👩‍👧 flag 🇯🇵 skin 👍🏽 keycap 1️⃣ heart ❤️ new 🫠 end",
        "combining e\u{301} a\u{308} Z\u{351}\u{352} n\u{303}, RTL مرحبا بالعالم, zero-width a\u{200B}b",
        "controls \u{07} \u{1B}[31mred? \u{202E}reversed\u{202C} tab\tstop, ~~gone~~ and ||hidden|| **bold** `code`",
        String(repeating: "x", count: 74) + "日本語 after a wide wrap",
        "joiners outside emoji a\u{200D}b and \u{915}\u{94D}\u{200D}\u{937} keep the row's width",
        "> quoted [link](https://example.com/page) and @ann\n\n- item one\n- item two",
    ]

    private func writeTrickyThread(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("tricky.jsonl").path
        let start = Date(timeIntervalSince1970: 1_600_000_000)
        var records: [ThreadRecord] = [
            .thread(ThreadHeader(id: "t", title: "Tricky clusters 日本 👨‍👩‍👧", author: "u1", created: start, body: "")),
            .user(User(id: "u1", handle: "ann", name: "Ann Ångström")),
            .user(User(id: "u2", handle: "bo", name: "Bo 日本 \u{1B}[2J")),
        ]
        for (n, body) in Self.trickyBodies.enumerated() {
            records.append(.comment(Comment(id: "c\(n)", author: n % 2 == 0 ? "u2" : "u1",
                                            created: start.addingTimeInterval(Double(n) * 60), body: body)))
        }
        let encoder = ThreadRecordEncoder()
        try Data(records.flatMap { encoder.encode($0) }).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The screen the client should show: the same file opened as the client opens it, drawn
    /// headless with the emoji policy the client's probe of this tmux found (kept in its cache).
    private func expectedScreen(path: String, columns: Int, rows: Int, tmux: TmuxSession,
                                scroll: (CommentApp) -> Void = { _ in }) throws -> [String] {
        var probed: GraphemePolicy?
        // The answers come after the first frame: wait until the client has them (and kept them).
        try Waiting.until("the client to probe the terminal and keep the answer") {
            probed = GraphemePolicyCache(environment: ["HOME": tmux.home.path, "TERM": "tmux-256color"])?.policy()
            return probed != nil
        }
        DisplayWidth.policy = probed!
        defer { DisplayWidth.policy = .substitute }
        let target = try OpenCommand.resolve(file: path, handle: "ann", context: .process())
        let app = CommentApp(source: target.source, me: target.me, columns: columns, rows: rows)
        app.wallTime = Date()
        scroll(app)
        return app.render().buffer.trimmedLines
    }

    func testTrickyClustersShowExactlyAsTheCellBufferHoldsThem() throws {
        let tmux = try TmuxSession(columns: 80, rows: 40)
        let path = try writeTrickyThread(in: tmux.home)
        try tmux.run("\(TmuxSession.clientPath) \(path) --as ann; echo EXIT=$?")
        var shown = try tmux.waitFor("the tricky thread") { $0.contains { $0.contains("item two") } }
        let expected = try expectedScreen(path: path, columns: 80, rows: 40, tmux: tmux)
        // tmux takes a frame in 4 KB pieces: a capture may come mid-frame, so wait for the whole
        // (a mismatch then shows row by row below).
        _ = try Waiting.poll(timeout: 5) {
            shown = try tmux.screen()
            return shown == expected
        }
        XCTAssertEqual(shown.count, expected.count)
        XCTAssertTrue(shown.contains { $0.contains("日本語のテキスト") } && shown.contains { $0.contains("░░░░░░") }, shown.joined(separator: "\n"))
        for (row, (pane, buffer)) in zip(shown, expected).enumerated() {
            XCTAssertEqual(pane, buffer, "row \(row)")
        }
        XCTAssertFalse(shown.joined().contains("\u{1B}"), "no escape reached the terminal as itself")
        // tmux 3.3a moves its cursor two columns over a family and a flag: they show whole.
        let probed = GraphemePolicyCache(environment: ["HOME": tmux.home.path, "TERM": "tmux-256color"])?.policy()
        if probed?.intact.contains(.joiner) == true {
            XCTAssertTrue(shown.contains { $0.contains("family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} ") }, shown.joined(separator: "\n"))
        }
        try tmux.keys("C-c")
        try tmux.waitFor("exit") { $0.contains("EXIT=0") }
    }

    func testAfterPartialUpdatesTheScreenEqualsAFullRedraw() throws {
        // With the emoji this tmux draws whole (its probe's answer), and with every one substituted.
        for policy in ["probe", "substitute"] {
            try assertPartialUpdatesEqualAFullRedraw(graphemes: policy)
        }
    }

    private func assertPartialUpdatesEqualAFullRedraw(graphemes: String) throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        let path = try writeTrickyThread(in: tmux.home)
        try tmux.run("\(TerminalGraphemeProbe.variable)=\(graphemes) \(TmuxSession.clientPath) \(path) --as ann; echo EXIT=$?")
        let start = try tmux.waitFor("the tricky thread") { $0.contains { $0.contains("item two") } }
        // Partial updates: typing, scrolling by pages and rows, selecting, revealing, wheel.
        try tmux.literal("draft 日本 text")
        try tmux.keys("PPage", "C-Up")
        // The wheel notch glides on: the selection below starts from the comment in view once
        // the feed rests, so where it lands does not depend on how far the glide got. Each wait
        // needs the feed moved as well as idle, so an idle screen from before the keys never counts.
        let before = try tmux.waitFor("the keys' scrolling to end") { screen in
            screen[2..<12] != start[2..<12] && screen.last!.contains(" · idle · ")
        }
        try tmux.literal("\u{1B}[<65;10;10M")  // Down: the keys left the feed at its top.
        try tmux.waitFor("the wheel's glide to end") { $0 != before && $0.last!.contains(" · idle · ") }
        try tmux.keys("M-Down")
        try tmux.keys("M-s")
        try tmux.keys("BSpace", "BSpace")
        let settled = try tmux.waitFor("the edits to show and the feed to rest") { screen in
            screen.contains { $0.hasPrefix("› draft 日本 te") && !$0.contains("text") } && screen.last!.contains(" · idle · ")
        }
        let partial = try tmux.settledStyledCells()
        XCTAssertEqual(partial, try tmux.styledCells(), "settled")
        XCTAssertTrue(settled.contains { $0.hasPrefix("▌") }, "a comment is selected\n" + settled.joined(separator: "\n"))
        XCTAssertTrue(partial.joined().contains { $0.hasSuffix("|1") }, "the capture carries styles")
        try tmux.keys("C-l")
        // Until the redraw matches, within a deadline; a mismatch then shows in the assertion.
        var redrawn: [[String]] = []
        _ = try Waiting.poll(timeout: 5) {
            redrawn = try tmux.styledCells()
            return redrawn == partial
        }
        XCTAssertEqual(redrawn, partial, "text, colours and attributes (\(graphemes))")
        try tmux.keys("C-c")
        try tmux.waitFor("exit") { $0.contains("EXIT=0") }
    }
}

/// `--visibility-log`: links seen whole are written at exit.
final class TmuxVisibilityLogTests: XCTestCase {
    func testLinksSeenAreLoggedAtExit() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        let path = tmux.home.appendingPathComponent("links.jsonl").path
        let log = tmux.home.appendingPathComponent("seen.log").path
        let client = TmuxSession.clientPath
        try tmux.run("\(client) new \(path) --title 'Links' --as ann --name Ann --body 'post'; "
                     + "\(client) post \(path) --as ann --body 'see [the docs](https://example.com/docs)'; echo MADE=$?")
        try tmux.waitFor("the thread") { $0.contains("MADE=0") }
        try tmux.run("\(client) \(path) --as ann --visibility-log \(log); echo EXIT=$?")
        // The link must be seen for a while (visible_ms >= 200): once it shows, wait until it has
        // stayed 0.3 s (the clock starts when it is on screen, not when the client starts).
        let link = "   see the docs (example.com)"
        try tmux.waitFor("the link") { $0.contains(link) }
        let clock = ContinuousClock()
        let shown = clock.now
        try tmux.waitFor("the link to stay on screen for 0.3 s") {
            $0.contains("   see the docs (example.com)") && clock.now - shown >= .milliseconds(300)
        }
        try tmux.keys("C-c")
        try tmux.waitFor("exit") { $0.contains("EXIT=0") }
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 1)
        let record = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        XCTAssertEqual(record["url"] as? String, "https://example.com/docs")
        XCTAssertNotNil(record["comment"] as? String)
        XCTAssertNotNil(Timestamp.parse(record["first_seen"] as? String ?? ""))
        XCTAssertGreaterThanOrEqual(record["visible_ms"] as? Int ?? -1, 200)
    }
}
