import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// A followed thread file's reactions that name no comment yet: another writer's reaction to an
/// id the file does not hold arrives live and shows nowhere, and a comment appended with that
/// id later does not take it (it came before its comment: `check` and `render` name it); one
/// before its comment in the file opened shows neither. And a reaction as the reader's first act
/// in a file that does not know them writes their user record first.
final class FileReactionOrderTests: XCTestCase {
    private func pause(_ pilot: Pilot) { pilot.advance(by: 1) }

    private func pump(_ pilot: Pilot, _ what: String, until done: @escaping () -> Bool) {
        let reached = LiveThreadFile.pump(pilot.app) {
            pilot.draw()
            return done()
        }
        XCTAssertTrue(reached, "\(what): \(pilot.lines.joined(separator: "\n"))")
    }

    private func react(_ id: String, by author: String, _ key: String, at seconds: Double = 30) -> ThreadRecord {
        .reaction(ReactionChange(comment: id, author: author, created: LiveThreadFile.start + seconds, key: key))
    }

    func testALiveReactionToAnUnknownCommentShowsNowhereNorOnTheCommentAppendedAfterIt() throws {
        let live = try LiveThreadFile(self, comments: 2)
        let pilot = Pilot(app: try live.openApp(columns: 60, rows: 20), screen: HeadlessScreen(columns: 60, rows: 20))
        pause(pilot)
        // Another writer reacts to c9, which no line holds, then to c2 (so we know both were read).
        try ThreadFileWriter(path: live.path).append([react("c9", by: "u2", "👀"), react("c2", by: "u2", "🎉")])
        pump(pilot, "the reaction to c2") { pilot.lines.contains("   🎉 1") }
        XCTAssertNil(pilot.app.reactions["c9"], "nothing kept for a comment no one has")
        XCTAssertFalse(pilot.lines.contains { $0.contains("👀") }, pilot.lines.joined(separator: "\n"))
        pause(pilot)
        // Then a comment c9 is appended: the reaction before it is not its.
        try ThreadFileWriter(path: live.path).append([.comment(LiveThreadFile.comment("c9", body: "late comment"))])
        pump(pilot, "c9 arrived") { pilot.app.allComments.last?.id == "c9" }
        pause(pilot)
        pilot.draw()
        let text = try XCTUnwrap(pilot.lines.firstIndex { $0.contains("late comment") })
        XCTAssertFalse(pilot.lines[(text + 1)...].contains { $0.contains("👀") }, pilot.lines.joined(separator: "\n"))
        XCTAssertNil(pilot.app.reactions["c9"])
        pause(pilot)
        // A reaction after it counts.
        try ThreadFileWriter(path: live.path).append([react("c9", by: "u2", "👍", at: 90)])
        pump(pilot, "the reaction after c9") { pilot.lines.count > text + 1 && pilot.lines[text + 1] == "   👍 1" }

        let check = VerbRun(.check, [live.path])
        XCTAssertEqual(check.status, 1)
        XCTAssertTrue(check.text.contains(#"\#(live.path):6: react of comment "c9": reaction before its comment (line 8), ignored"#), check.text)
    }

    func testAReactionBeforeItsCommentInTheFileOpenedShowsNowhere() throws {
        let live = try LiveThreadFile(self, comments: 1)
        try ThreadFileWriter(path: live.path).append([react("c2", by: "u2", "👀"), .comment(LiveThreadFile.comment("c2")),
                                                      react("c2", by: "u2", "🎉")])
        let pilot = Pilot(app: try live.openApp(columns: 60, rows: 20), screen: HeadlessScreen(columns: 60, rows: 20))
        pump(pilot, "c2's reaction") { pilot.lines.contains("   🎉 1") }
        XCTAssertFalse(pilot.lines.contains { $0.contains("👀") }, pilot.lines.joined(separator: "\n"))

        let render = VerbRun(.render, [live.path, "--width", "40", "--plain", "--now", "2025-04-17T12:00:00Z"])
        XCTAssertEqual(render.status, 1)
        XCTAssertFalse(render.text.contains("👀"), render.text)
        XCTAssertTrue(render.error.contains(#"\#(live.path):5: react of comment "c2": reaction before its comment (line 6), ignored"#), render.error)
    }
}
