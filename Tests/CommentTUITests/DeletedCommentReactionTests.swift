import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// A deleted comment shows no reactions, as `render` and a room show none: read so with the
/// file, or deleted while it is open.
final class DeletedCommentReactionTests: XCTestCase {
    func testADeletedCommentShowsNoReactionRow() throws {
        let live = try LiveThreadFile(self, comments: 2)
        try ThreadFileWriter(path: live.path).append([
            .reaction(ReactionChange(comment: "c1", author: "u1", created: LiveThreadFile.start, key: "👍")),
            .reaction(ReactionChange(comment: "c2", author: "u1", created: LiveThreadFile.start, key: "🎉")),
            .change(CommentChange(comment: "c1", author: "u2", created: LiveThreadFile.start + 10, kind: .delete)),
        ])
        let pilot = Pilot(app: try live.openApp(columns: 60, rows: 20), screen: HeadlessScreen(columns: 60, rows: 20))
        XCTAssertTrue(LiveThreadFile.pump(pilot.app) {
            pilot.draw()
            return pilot.lines.contains("   🎉 1")
        }, pilot.lines.joined(separator: "\n"))
        let deleted = try XCTUnwrap(pilot.lines.firstIndex { $0.hasSuffix("(deleted)") })
        XCTAssertEqual(pilot.lines[deleted + 1], "", "no row under the deleted comment: \(pilot.lines)")

        try ThreadFileWriter(path: live.path).append([
            .change(CommentChange(comment: "c2", author: "u2", created: LiveThreadFile.start + 20, kind: .delete)),
        ])
        XCTAssertTrue(LiveThreadFile.pump(pilot.app) {
            pilot.draw()
            return !pilot.lines.contains("   🎉 1")
        }, "deleted while open, its row goes: \(pilot.lines.joined(separator: "\n"))")
    }

    func testAltKOnADeletedCommentSaysSoAndAppendsNothing() throws {
        let live = try LiveThreadFile(self, comments: 2)
        try ThreadFileWriter(path: live.path).append([
            .change(CommentChange(comment: "c1", author: "u2", created: LiveThreadFile.start + 10, kind: .delete)),
        ])
        let pilot = Pilot(app: try live.openApp(columns: 80, rows: 20), screen: HeadlessScreen(columns: 80, rows: 20))
        XCTAssertTrue(LiveThreadFile.pump(pilot.app) {
            pilot.draw()
            return pilot.lines.contains { $0.hasSuffix("(deleted)") }
        }, pilot.lines.joined(separator: "\n"))
        let before = try String(contentsOfFile: live.path, encoding: .utf8)
        pilot.advance(by: 1)
        pilot.press(.altUp)
        pilot.advance(by: 1)
        pilot.press(.altUp)   // c1, deleted
        pilot.advance(by: 1)
        pilot.feed("\u{1B}k")
        pilot.advance(by: 1)
        pilot.type("1")
        pilot.draw()
        XCTAssertEqual(try String(contentsOfFile: live.path, encoding: .utf8), before, "nothing appended")
        XCTAssertTrue(pilot.lines.contains { $0.contains("this comment is deleted") }, pilot.lines.joined(separator: "\n"))
    }
}
