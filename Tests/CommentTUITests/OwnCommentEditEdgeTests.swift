import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// The edges of editing and deleting the reader's own comments in a thread file: quitting during
/// an edit, the delete question's answer, a comment changed under the key that would change it.
final class OwnCommentEditEdgeTests: XCTestCase {
    private var live: LiveThreadFile!

    /// bo's c1, then ann's c2; the pilot is ann with a draft in progress.
    private func open() throws -> Pilot {
        let opened = try openOwnCommentThread(c2: "teh plan")
        live = opened.file
        return opened.pilot
    }

    private func pause(_ pilot: Pilot) { pilot.advance(by: 1) }

    /// The draft file as the next start reads it.
    private func savedDraft(_ app: CommentApp) throws -> String {
        let draftFile = try XCTUnwrap(app.source.draftFile)
        return try ComposerDocument(decoding: try XCTUnwrap(try draftFile.load())).markdown
    }

    func testQuittingDuringAnEditKeepsACommentStillWaitingForTheLockInTheDraft() throws {
        let pilot = try open()
        let lock = try AppendLock(path: live.path)
        lock.release(after: 30)
        defer { lock.release() }
        pilot.press(KeyPress(.enter))   // "half a thought" waits for the lock
        XCTAssertEqual(pilot.app.unconfirmedComments.count, 1)
        pause(pilot)
        pilot.type("second")
        pause(pilot)
        pilot.press(KeyPress(.up, .alt))   // ours on its way
        pilot.press(KeyPress(.up, .alt))   // c2
        pause(pilot)
        pilot.press(.alt("c"))
        XCTAssertEqual(pilot.app.draft, "teh plan")
        pilot.type(" and more")
        // Quit, as the launcher does.
        pilot.app.keepUnsentInDraft()
        XCTAssertNil(pilot.app.prepareToExit())
        XCTAssertEqual(try savedDraft(pilot.app), "half a thought\n\nsecond", "the waiting comment and the draft are saved")
        lock.release()
        let source = try XCTUnwrap(pilot.app.source as? ThreadFileSource)
        XCTAssertTrue(source.waitForAppends(timeout: 5))
        XCTAssertEqual(try live.fileBodies(), ["body of c1", "teh plan"], "withdrawn, and the edit not sent")
    }

    /// Alt-W's question: only y or Y deletes; Enter, any other key, a paste or a click keeps the
    /// comment, and none of them is typed, sent or acted on.
    func testOnlyYAnswersTheDeleteQuestionYes() throws {
        let pilot = try open()
        pilot.press(KeyPress(.up, .alt))
        pause(pilot)
        pilot.press(.alt("w"))
        pause(pilot)
        pilot.press(KeyPress(.enter))
        XCTAssertEqual(pilot.app.message, "kept your comment")
        XCTAssertEqual(pilot.app.draft, "half a thought", "Enter did not send the draft")
        XCTAssertTrue(pilot.app.unconfirmedComments.isEmpty)
        pause(pilot)
        pilot.press(.alt("w"))
        pause(pilot)
        pilot.send(.paste("y"))
        XCTAssertEqual(pilot.app.message, "kept your comment")
        XCTAssertEqual(pilot.app.draft, "half a thought", "the paste is not typed")
        pause(pilot)
        pilot.press(.alt("w"))
        pause(pilot)
        pilot.draw()
        let selected = pilot.app.selectedCommentID
        pilot.click(column: 5, row: 5)
        XCTAssertEqual(pilot.app.message, "kept your comment")
        XCTAssertEqual(pilot.app.selectedCommentID, selected, "the click only answered")
        pause(pilot)
        pilot.press(KeyPress(.character("y")))
        XCTAssertEqual(pilot.app.draft, "half a thoughty", "no question is left armed")
        XCTAssertEqual(try live.fileBodies(), ["body of c1", "teh plan"])
        pilot.press(KeyPress(.backspace))
        pause(pilot)
        pilot.press(.alt("w"))
        pause(pilot)
        pilot.press(KeyPress(.character("Y"), .shift))
        XCTAssertEqual(pilot.app.message, "deleted")
        XCTAssertEqual(try live.fileBodies(), ["body of c1", "(deleted)"])
        // Without the question the same click selects another comment.
        pause(pilot)
        pilot.click(column: 5, row: 5)
        XCTAssertNotEqual(pilot.app.selectedCommentID, selected)
    }

    /// An emptied edit is not sent; the status bar says how to delete instead, in the order
    /// that works (Alt-W waits while an edit holds the composer).
    func testAnEmptyEditSaysToLeaveItBeforeDeleting() throws {
        let pilot = try open()
        pilot.press(KeyPress(.up, .alt))
        pause(pilot)
        pilot.press(.alt("c"))
        pause(pilot)
        for _ in 0..<"teh plan".count { pilot.press(KeyPress(.backspace)) }
        XCTAssertEqual(pilot.app.draft, "")
        pause(pilot)
        pilot.press(KeyPress(.enter))
        XCTAssertEqual(pilot.app.message, "the edit is empty — Esc leaves it; then Alt-W deletes the comment")
        pause(pilot)
        pilot.press(KeyPress(.escape))
        pause(pilot)
        pilot.press(.alt("w"))
        XCTAssertEqual(pilot.app.message, "delete your comment? y/n", "as the status bar said")
        XCTAssertEqual(try live.fileBodies(), ["body of c1", "teh plan"])
    }

    /// Ann's other client deletes the comment while this one edits it, or asks whether to
    /// delete it: Enter and y find it deleted and append nothing.
    func testACommentDeletedMeanwhileIsNeitherEditedNorDeletedAgain() throws {
        let pilot = try open()
        pilot.press(KeyPress(.up, .alt))
        pause(pilot)
        pilot.press(.alt("c"))
        pilot.type(" fixed")
        pause(pilot)
        try ThreadFileWriter(path: live.path).append([
            .change(CommentChange(comment: "c2", author: "u1", created: LiveThreadFile.start + 30, kind: .delete)),
        ])
        XCTAssertTrue(LiveThreadFile.pump(pilot.app) { pilot.app.allComments.last?.isDeleted == true })
        pause(pilot)
        pilot.press(KeyPress(.enter))
        XCTAssertEqual(pilot.app.message, "the comment was deleted meanwhile — Esc leaves the edit")
        XCTAssertEqual(pilot.app.allComments.last?.body, "(deleted)")
        pause(pilot)
        pilot.press(KeyPress(.escape))
        XCTAssertEqual(pilot.app.draft, "half a thought")
        let lines = try String(contentsOfFile: live.path, encoding: .utf8).split(separator: "\n")
        XCTAssertTrue(lines.last?.contains(#""type":"delete""#) == true, "no edit appended: \(lines.last ?? "")")

        // Alt-W asked before the deletion came.
        try ThreadFileWriter(path: live.path).append([.comment(Comment(id: "c3", author: "u1", created: LiveThreadFile.start + 40,
                                                                        body: "another"))])
        XCTAssertTrue(LiveThreadFile.pump(pilot.app) { pilot.app.allComments.last?.id == "c3" })
        pause(pilot)
        pilot.press(KeyPress(.up, .alt))
        for _ in 0..<3 where pilot.app.selectedCommentID != "c3" { pilot.press(KeyPress(.down, .alt)) }
        XCTAssertEqual(pilot.app.selectedCommentID, "c3")
        pilot.press(.alt("w"))
        XCTAssertEqual(pilot.app.message, "delete your comment? y/n")
        try ThreadFileWriter(path: live.path).append([
            .change(CommentChange(comment: "c3", author: "u1", created: LiveThreadFile.start + 50, kind: .delete)),
        ])
        XCTAssertTrue(LiveThreadFile.pump(pilot.app) { pilot.app.allComments.last?.isDeleted == true })
        pause(pilot)
        pilot.press(KeyPress(.character("y")))
        XCTAssertEqual(pilot.app.message, "the comment was deleted meanwhile")
        let after = try String(contentsOfFile: live.path, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(after.filter { $0.contains(#""comment":"c3""#) }.count, 1, "deleted once")
    }
}
