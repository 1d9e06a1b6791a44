import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// Reactions in a followed thread file, through the pilot with a person's pauses: those the file
/// holds show under their comments when it opens (no flash), Alt-K toggles ours by appending a
/// `react` then an `unreact` record, and another writer's reaction shows live, flashing.
final class FileReactionFlowTests: XCTestCase {
    private func pause(_ pilot: Pilot) { pilot.advance(by: 1) }

    private func lines(of path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Pumps the source's updates until `done` holds of the screen, drawn anew each time.
    private func pump(_ pilot: Pilot, _ what: String, until done: @escaping () -> Bool) {
        let reached = LiveThreadFile.pump(pilot.app) {
            pilot.draw()
            return done()
        }
        XCTAssertTrue(reached, "\(what): \(pilot.lines.joined(separator: "\n"))")
    }

    func testOpenedReactionsShowAndAltKTogglesOursByAppendingRecords() throws {
        let live = try LiveThreadFile(self, comments: 2)
        try ThreadFileWriter(path: live.path).append([
            .reaction(ReactionChange(comment: "c1", author: "u2", created: LiveThreadFile.start, key: "👍")),
        ])
        let pilot = Pilot(app: try live.openApp(columns: 60, rows: 20), screen: HeadlessScreen(columns: 60, rows: 20))
        pump(pilot, "the file's reaction under c1") { pilot.lines.contains("   👍 1") }
        let text = try XCTUnwrap(pilot.lines.firstIndex { $0.contains("body of c1") })
        XCTAssertEqual(pilot.lines[text + 1], "   👍 1", "under the comment it annotates: \(pilot.lines)")
        XCTAssertTrue(pilot.app.feed.effects.isEmpty, "read with the file: no flash")

        pause(pilot)
        pilot.press(.altUp)
        pause(pilot)
        pilot.press(.altUp)   // c1
        pause(pilot)
        pilot.feed("\u{1B}k")
        XCTAssertTrue(pilot.lines.contains { $0.hasPrefix("react: 1👍") }, "the picker: \(pilot.lines)")
        pause(pilot)
        pilot.type("1")
        let added = try XCTUnwrap(try lines(of: live.path).last)
        XCTAssertTrue(added.hasPrefix(#"{"type":"react","comment":"c1","author":"u1","created":""#) && added.hasSuffix(#","key":"👍"}"#), added)
        pump(pilot, "our reaction counted") { pilot.lines[text + 1] == "▌  👍 2" }
        XCTAssertTrue(pilot.screen.screen[3, text + 1].style.attributes.contains(.reverse), "ours, marked")

        pause(pilot)
        pilot.feed("\u{1B}k")
        pause(pilot)
        pilot.type("1")
        let removed = try XCTUnwrap(try lines(of: live.path).last)
        XCTAssertTrue(removed.hasPrefix(#"{"type":"unreact","comment":"c1","author":"u1","#) && removed.hasSuffix(#","key":"👍"}"#), removed)
        pump(pilot, "ours taken back") { pilot.lines[text + 1] == "▌  👍 1" }
        XCTAssertEqual(try lines(of: live.path).count, 8, "append-only: 6 lines, then our react and unreact")
        let read = try ThreadFile.read(path: live.path)
        XCTAssertEqual(read.problems, [])
        XCTAssertEqual(read.thread.reactions.counts(of: "c1", me: "u1"), [ReactionCount(key: "👍", count: 1, includesMine: false)])
    }

    func testAnotherWritersReactionShowsLiveWithAFlash() throws {
        let live = try LiveThreadFile(self, comments: 2)
        let pilot = Pilot(app: try live.openApp(columns: 60, rows: 20), screen: HeadlessScreen(columns: 60, rows: 20))
        pause(pilot)
        let text = try XCTUnwrap(pilot.lines.firstIndex { $0.contains("body of c2") })
        XCTAssertEqual(pilot.lines[text + 1], "")
        // Another process (Bo's client) appends his reaction.
        try ThreadFileWriter(path: live.path).append([
            .reaction(ReactionChange(comment: "c2", author: "u2", created: LiveThreadFile.start + 30, key: "🎉")),
        ])
        pump(pilot, "Bo's reaction under c2") { pilot.lines[text + 1] == "   🎉 1" }
        XCTAssertFalse(pilot.app.feed.effects.isEmpty, "a live reaction flashes")
        // And taken back by him: the row goes.
        try ThreadFileWriter(path: live.path).append([
            .reaction(ReactionChange(comment: "c2", author: "u2", created: LiveThreadFile.start + 40, key: "🎉", removes: true)),
        ])
        pump(pilot, "Bo's reaction gone") { pilot.lines[text + 1] == "" }
    }
}

extension FileReactionFlowTests {
    /// Our comment still waiting for the file's lock is in no thread yet: Alt-K on it reacts
    /// with nothing, and says why, rather than append a reaction to a comment the file may never hold.
    func testAltKOnOurCommentNotSentYetSaysSo() throws {
        let live = try LiveThreadFile(self, comments: 1)
        let pilot = Pilot(app: try live.openApp(columns: 60, rows: 20), screen: HeadlessScreen(columns: 60, rows: 20))
        let lock = try AppendLock(path: live.path)
        lock.release(after: 10)
        pilot.type("held back")
        pilot.press(KeyPress(.enter))
        pause(pilot)
        pilot.press(.altUp)   // ours, on its way
        pause(pilot)
        pilot.feed("\u{1B}k")
        XCTAssertNil(pilot.app.reactionPicker)
        XCTAssertEqual(pilot.app.message, "no reaction: this comment is not sent yet")
        lock.release()
        XCTAssertTrue(LiveThreadFile.pump(pilot.app) { pilot.app.deliveries.isEmpty })
        XCTAssertFalse(try String(contentsOfFile: live.path, encoding: .utf8).contains(#""type":"react""#))
    }

    func testAReactionPastTheBoundIsRefusedWithAMessageNotWrittenAndIgnored() throws {
        let live = try LiveThreadFile(self, comments: 2)
        try ThreadFileWriter(path: live.path).append((0..<ReactionTally.mostPerSender).map {
            .reaction(ReactionChange(comment: "c1", author: "u1", created: LiveThreadFile.start, key: "ok\($0)"))
        })
        let pilot = Pilot(app: try live.openApp(columns: 120, rows: 20), screen: HeadlessScreen(columns: 120, rows: 20))
        pump(pilot, "the file's reactions read") { pilot.app.reactions["c1"] != nil }
        let before = try lines(of: live.path).count
        pause(pilot)
        pilot.press(.altUp)
        pause(pilot)
        pilot.press(.altUp)   // c1
        pause(pilot)
        pilot.feed("\u{1B}k")
        pause(pilot)
        pilot.type("1")
        XCTAssertEqual(try lines(of: live.path).count, before, "nothing appended that readers would ignore")
        pilot.draw()
        XCTAssertTrue(pilot.lines.contains { $0.contains("over the bound of 20 reactions by one person") }, pilot.lines.joined(separator: "\n"))
    }
}
