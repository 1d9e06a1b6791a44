import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// F2 on the selected comment with reactions names who reacted with each key, the reader
/// marked, hostile names shown with their controls as placeholders; elsewhere F2 is still the
/// hit-test inspector.
final class ReactorsPageTests: XCTestCase {
    private func pause(_ pilot: Pilot) { pilot.advance(by: 1) }

    func testF2OnTheSelectedCommentNamesWhoReactedOursMarkedHostileNamesDefused() throws {
        let live = try LiveThreadFile(self, comments: 2)
        let hostile = "Eve\u{1B}]0;owned\u{07}\u{202E}evil"
        func react(_ author: String, _ key: String, at seconds: Double) -> ThreadRecord {
            .reaction(ReactionChange(comment: "c1", author: author, created: LiveThreadFile.start + seconds, key: key))
        }
        try ThreadFileWriter(path: live.path).append([
            .user(User(id: "u3", handle: "eve", name: hostile)),
            react("u2", "👍", at: 1), react("u1", "👍", at: 2), react("u3", "🎉", at: 3), react("u3", "👍", at: 4),
        ])
        let pilot = Pilot(app: try live.openApp(columns: 60, rows: 20), screen: HeadlessScreen(columns: 60, rows: 20))
        XCTAssertTrue(LiveThreadFile.pump(pilot.app) { pilot.app.reactions["c1"] != nil }, "the file's reactions read")
        pause(pilot)
        pilot.press(KeyPress(.function(2)))
        XCTAssertNil(pilot.app.overlays.page, "nothing selected: F2 is the inspector")
        XCTAssertTrue(pilot.app.overlays.showsHitTest)
        pilot.press(KeyPress(.function(2)))
        XCTAssertFalse(pilot.app.overlays.showsHitTest)

        pause(pilot)
        pilot.press(.altUp)
        pause(pilot)
        pilot.press(.altUp)   // c1
        pause(pilot)
        pilot.press(KeyPress(.function(2)))
        let page = pilot.lines.joined(separator: "\n")
        XCTAssertTrue(pilot.lines.contains { $0.contains("Reactions") && $0.contains("to Bo's comment") }, page)
        XCTAssertTrue(pilot.lines.contains { $0.contains("👍") && $0.contains("Bo, Ann (you), Eve") }, "most people first, in the order they reacted: \(page)")
        XCTAssertTrue(pilot.lines.contains { $0.contains("🎉") && $0.contains("Eve") }, page)
        XCTAssertFalse(page.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E }, "no control reaches the screen: \(page)")
        XCTAssertFalse(pilot.app.overlays.showsHitTest)
        pause(pilot)
        pilot.press(KeyPress(.escape))
        XCTAssertNil(pilot.app.overlays.page, "Esc closes it")
    }

    func testF2WithTheInspectorOnTurnsItOffBeforeNamingWhoReacted() throws {
        let live = try LiveThreadFile(self, comments: 2)
        try ThreadFileWriter(path: live.path).append([
            .reaction(ReactionChange(comment: "c1", author: "u2", created: LiveThreadFile.start + 1, key: "👍")),
        ])
        let pilot = Pilot(app: try live.openApp(columns: 60, rows: 20), screen: HeadlessScreen(columns: 60, rows: 20))
        XCTAssertTrue(LiveThreadFile.pump(pilot.app) { pilot.app.reactions["c1"] != nil }, "the file's reactions read")
        pause(pilot)
        pilot.press(KeyPress(.function(2)))
        XCTAssertTrue(pilot.app.overlays.showsHitTest, "nothing selected: F2 is the inspector")
        pause(pilot)
        pilot.press(.altUp)
        pause(pilot)
        pilot.press(.altUp)   // c1, with a reaction
        pause(pilot)
        pilot.press(KeyPress(.function(2)))
        XCTAssertFalse(pilot.app.overlays.showsHitTest, "the inspector on: F2 turns it off")
        XCTAssertNil(pilot.app.overlays.page, "…and names nobody yet")
        pause(pilot)
        pilot.press(KeyPress(.function(2)))
        XCTAssertTrue(pilot.lines.contains { $0.contains("Reactions") }, "then F2 names who reacted: \(pilot.lines.joined(separator: "\n"))")
        XCTAssertFalse(pilot.app.overlays.showsHitTest)
    }
}
