import Foundation
import XCTest

/// The composer and the mention list in a real terminal: tmux at 80x24 on the demo thread.
final class TmuxComposerTests: XCTestCase {
    func demoFile(_ tmux: TmuxSession) throws -> String {
        try String(contentsOf: tmux.home.appendingPathComponent("data/comment-tui/demo.jsonl"), encoding: .utf8)
    }

    /// The demo file's line holding `fragment`, once it is there: a comment shows at once and is
    /// appended off the UI thread, and the demo's companion may answer after it.
    func sentLine(_ tmux: TmuxSession, containing fragment: String) throws -> String {
        var line: String?
        try Waiting.until("a line with \(fragment) in the demo file") {
            line = try demoFile(tmux).split(separator: "\n").last { $0.contains(fragment) }.map(String.init)
            return line != nil
        }
        return try XCTUnwrap(line)
    }

    func testTypedCommentIsSentToTheThreadFile() throws {
        let tmux = try TmuxSession()
        try tmux.startClient()
        try tmux.literal("sent from tmux with **bold** words")
        try tmux.keys("Enter")
        try tmux.waitFor("the comment in the feed") { $0.contains { $0.hasPrefix("   sent from tmux with bold words") } }
        let line = try sentLine(tmux, containing: "sent from tmux with")
        XCTAssertTrue(line.contains(#""author":"u1""#), line)
        XCTAssertTrue(line.contains(#""body":"sent from tmux with **bold** words""#), "typed Markdown is sent as typed: \(line)")
        try tmux.keys("C-c")
        try tmux.waitFor("exit") { $0.contains("EXIT=0") }
    }

    func testADraftSurvivesAKill() throws {
        let tmux = try TmuxSession()
        try tmux.startClient()
        try tmux.literal("words nobody sent")
        try tmux.waitFor("the draft") { $0.contains("› words nobody sent") }
        // The save is debounced: kill only once the draft file holds the words.
        let state = tmux.home.appendingPathComponent("data/comment-tui/state")
        try Waiting.until("the draft saved under \(state.path)") {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: state.path)) ?? []
            return names.contains { name in
                name.hasSuffix(".draft.json")
                    && ((try? String(contentsOf: state.appendingPathComponent(name), encoding: .utf8))?.contains("words nobody sent") ?? false)
            }
        }
        kill(try tmux.workerPID(), SIGKILL)
        try tmux.waitFor("the report", timeout: 30) { $0.contains { $0.hasPrefix("EXIT=") } }
        try tmux.startClient()
        let screen = try tmux.waitFor("the restored draft") { $0.contains("› words nobody sent") }
        XCTAssertTrue(screen.last!.contains("draft restored"), screen.last!)
        try tmux.keys("C-c")
        try tmux.waitFor("exit") { $0.contains("EXIT=0") }
    }

    func testMentionListInsertsAndItsInsetPassesTheWheelToTheFeed() throws {
        let tmux = try TmuxSession()
        try tmux.startClient()
        try tmux.literal("thanks @ma")
        let open = try tmux.waitFor("the mention list") { $0.contains { $0.hasPrefix("─ @ma · ") } }
        let titleRow = try XCTUnwrap(open.firstIndex { $0.hasPrefix("─ @ma · ") })
        XCTAssertLessThan(titleRow, 20, "the list stands above the composer's rule")
        let highlighted = try XCTUnwrap(open[titleRow + 1].split(separator: " ").first { $0.hasPrefix("@") }.map(String.init))

        // A wheel notch on a row of the transparent inset (two rows above the title) reaches the feed.
        let insetRow = titleRow - 2
        XCTAssertGreaterThan(insetRow, 3)
        try tmux.literal("\u{1B}[<64;10;\(insetRow + 1)M")
        let scrolled = try tmux.waitFor("the feed to move under the list") {
            $0[2..<titleRow] != open[2..<titleRow] && $0.last!.contains(" · idle · ")
        }
        XCTAssertEqual(Array(scrolled[titleRow..<21]), Array(open[titleRow..<21]), "the list itself stayed put")

        try tmux.keys("Enter")
        try tmux.waitFor("the mention in the composer") { $0.contains("› thanks \(highlighted)") }
        try tmux.literal("see this")
        try tmux.keys("Enter")
        try tmux.waitFor("the comment in the feed") { $0.contains { $0.contains("thanks \(highlighted) see this") } }
        let line = try sentLine(tmux, containing: "see this")
        XCTAssertTrue(line.contains("\"body\":\"thanks \(highlighted) see this\""), line)
        try tmux.keys("C-c")
        try tmux.waitFor("exit") { $0.contains("EXIT=0") }
    }
}

extension TmuxComposerTests {
    func testControlXControlEEditsTheDraftInTheEditor() throws {
        let tmux = try TmuxSession()
        // An "editor" that rewrites the file it is given and exits.
        try tmux.run("export EDITOR='sed -i s/first/second/'")
        try tmux.startClient()
        try tmux.literal("my first words")
        try tmux.waitFor("the draft") { $0.contains("› my first words") }
        try tmux.keys("C-x", "C-e")
        let screen = try tmux.waitFor("the edited draft") { $0.contains("› my second words") }
        XCTAssertTrue(screen.last!.contains("draft edited in the editor"), screen.last!)
        XCTAssertEqual(try tmux.format("#{alternate_on} #{mouse_button_flag}"), "1 1", "the screen and the mouse are back")
        try tmux.keys("C-c")
        try tmux.waitFor("exit") { $0.contains("EXIT=0") }
    }
}

extension TmuxComposerTests {
    /// A thread too big for a key to wait on its mention index (5,000 users, past 2,000): the
    /// index builds on its own thread once the thread shows and lands through the real loop's
    /// poll. An `@` typed the moment the thread shows fills in with no further key; after a real
    /// pause of a second the next `@` lists ranked users in its first frame.
    func testABigThreadsMentionListFillsInThroughTheRealLoop() throws {
        let tmux = try TmuxSession()
        let path = tmux.home.appendingPathComponent("crowd.jsonl").path
        try tmux.run("\(TmuxSession.clientPath) generate --comments 50 --users 5000 --seed 5 > \(path); echo GEN=$?")
        try tmux.waitFor("the generated thread") { $0.contains { $0.contains("GEN=0") } }
        try tmux.run("\(TmuxSession.clientPath) \(path) --as kasia; echo EXIT=$?")
        try tmux.waitFor("the thread") { $0.contains { $0.contains("@kasia · crowd.jsonl") } }
        try tmux.literal("@zo")
        let filled = try tmux.waitFor("the list ranked, with no key after the @") {
            $0.contains { $0.hasPrefix("─ @zo · ") && $0.contains(" users") }
        }
        XCTAssertFalse(filled.contains { $0.contains("ranking users") }, filled.joined(separator: "\n"))
        try tmux.keys("Escape")
        try tmux.waitFor("the list closed") { !$0.contains { $0.hasPrefix("─ @zo · ") } }
        Thread.sleep(forTimeInterval: 1)
        try tmux.literal(" @fa")
        let ranked = try tmux.waitFor("the list after a second's pause") { $0.contains { $0.hasPrefix("─ @fa · ") } }
        let title = try XCTUnwrap(ranked.first { $0.hasPrefix("─ @fa · ") })
        XCTAssertTrue(title.contains(" users"), title)
        let titleRow = try XCTUnwrap(ranked.firstIndex(of: title))
        XCTAssertTrue(ranked[titleRow + 1].contains("@fa"), "the best match first: \(ranked[titleRow + 1])")
        try tmux.keys("C-c")
        try tmux.waitFor("exit") { $0.contains("EXIT=0") }
    }
}
