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
        live = try LiveThreadFile(self, comments: 1)
        try ThreadFileWriter(path: live.path).append([.comment(Comment(id: "c2", author: "u1", created: LiveThreadFile.start,
                                                                        body: "teh plan"))])
        let app = try live.openApp(columns: 60, rows: 20)
        let pilot = Pilot(app: app, screen: HeadlessScreen(columns: 60, rows: 20))
        pilot.type("half a thought")
        pilot.advance(by: 1)
        return pilot
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
}
