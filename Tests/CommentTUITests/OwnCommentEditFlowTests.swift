import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// Editing and deleting the reader's own comments in a followed thread file, through the pilot
/// with a person's pauses: Alt-C brings the selected comment into the composer (mentions as
/// tokens), Enter appends the edit, Esc leaves it with the draft back; Alt-W deletes after y/n.
final class OwnCommentEditFlowTests: XCTestCase {
    private var live: LiveThreadFile!

    /// bo's c1, then ann's c2 mentioning bo; the pilot is ann with a draft in progress.
    private func open() throws -> Pilot {
        let opened = try openOwnCommentThread(c2: "teh plan, @bo")
        live = opened.file
        return opened.pilot
    }

    private func pause(_ pilot: Pilot) { pilot.advance(by: 1) }

    /// The file's last line, as written.
    private func lastLine() throws -> String {
        try String(contentsOfFile: live.path, encoding: .utf8).split(separator: "\n").last.map(String.init) ?? ""
    }

    private func mentionIDs(_ app: CommentApp) -> [String] {
        app.draftDocument.text.runs[CommentAttributes.MentionAttribute.self].compactMap { value, _ in value }
    }

    func testAltCEditsOurCommentAndEnterAppendsTheEdit() throws {
        let pilot = try open()
        pilot.press(KeyPress(.up, .alt))     // the newest shown: ours
        pause(pilot)
        pilot.press(.alt("c"))
        XCTAssertEqual(pilot.app.draft, "teh plan, @bo")
        XCTAssertEqual(mentionIDs(pilot.app), ["u2"], "the mention comes back as a token")
        XCTAssertEqual(pilot.app.message, "editing your comment — Enter saves · Esc leaves")
        pause(pilot)
        pilot.press(.ctrl("a"))
        pilot.press(KeyPress(.delete)); pilot.press(KeyPress(.delete)); pilot.press(KeyPress(.delete))
        pilot.type("the")
        pause(pilot)
        pilot.press(KeyPress(.enter))
        XCTAssertEqual(pilot.app.message, "edited")
        XCTAssertEqual(pilot.app.draft, "half a thought", "the draft comes back")
        XCTAssertTrue(pilot.lines.contains("▌  the plan, @bo"), "edited and still selected: \(pilot.lines.joined(separator: "\n"))")
        XCTAssertTrue(pilot.lines.contains { $0.contains("Ann") && $0.contains("edited") }, pilot.lines.joined(separator: "\n"))
        XCTAssertEqual(try lastLine(), #"{"type":"edit","comment":"c2","author":"u1","created":"2025-04-17T10:01:00Z","body":"the plan, @bo"}"#)
        XCTAssertEqual(try live.fileBodies(), ["body of c1", "the plan, @bo"])

        // The file's echo of our edit changes nothing more; the feed keeps one copy.
        pause(pilot)
        XCTAssertTrue(LiveThreadFile.pump(pilot.app) { pilot.app.sentChanges.isEmpty })
        pilot.draw()
        XCTAssertEqual(pilot.lines.filter { $0.hasSuffix("  the plan, @bo") }.count, 1)
        XCTAssertEqual(pilot.app.allComments.map(\.body), ["body of c1", "the plan, @bo"])
    }

    func testEscLeavesTheEditAndTheDraftComesBackAsItWasSaved() throws {
        let pilot = try open()
        pilot.press(KeyPress(.up, .alt))
        pause(pilot)
        pilot.press(.alt("c"))
        pilot.type(" and more")
        pause(pilot); pause(pilot); pause(pilot)
        // The draft file keeps the draft while the edit is in the composer.
        let draftFile = try XCTUnwrap(pilot.app.source.draftFile)
        let saved = try ComposerDocument(decoding: try XCTUnwrap(try draftFile.load()))
        XCTAssertEqual(saved.string, "half a thought")
        pilot.press(KeyPress(.escape))
        XCTAssertEqual(pilot.app.draft, "half a thought")
        XCTAssertEqual(pilot.app.message, "edit left; the comment is unchanged")
        XCTAssertEqual(try live.fileBodies(), ["body of c1", "teh plan, @bo"])
        XCTAssertTrue(try lastLine().hasPrefix(#"{"type":"comment","id":"c2""#), "nothing appended")
        // The next Enter sends the draft, not an edit.
        pause(pilot)
        pilot.press(KeyPress(.enter))
        XCTAssertTrue(LiveThreadFile.pump(pilot.app) { (try? self.live.fileBodies().count) == 3 })
        XCTAssertEqual(try live.fileBodies().last, "half a thought")
    }

    func testOthersCommentsAreNotChanged() throws {
        let pilot = try open()
        pilot.press(KeyPress(.up, .alt))
        pilot.press(KeyPress(.up, .alt))    // bo's
        pause(pilot)
        pilot.press(.alt("c"))
        XCTAssertEqual(pilot.app.message, "only your own comments can be edited")
        XCTAssertEqual(pilot.app.draft, "half a thought")
        pause(pilot)
        pilot.press(.alt("w"))
        XCTAssertEqual(pilot.app.message, "only your own comments can be deleted")
        pause(pilot)
        pilot.press(KeyPress(.character("y")))
        XCTAssertEqual(pilot.app.draft, "half a thoughty", "no question was asked: y is typed")
        XCTAssertEqual(try live.fileBodies(), ["body of c1", "teh plan, @bo"])
    }

    func testAltWAsksAndYDeletesOurComment() throws {
        let pilot = try open()
        pilot.press(KeyPress(.up, .alt))
        pause(pilot)
        pilot.press(.alt("w"))
        XCTAssertEqual(pilot.app.message, "delete your comment? y/n")
        pause(pilot)
        pilot.press(KeyPress(.character("n")))
        XCTAssertEqual(pilot.app.message, "kept your comment")
        XCTAssertEqual(pilot.app.draft, "half a thought", "the answer is not typed")
        pause(pilot)
        pilot.press(.alt("w"))
        pause(pilot)
        pilot.press(KeyPress(.character("y")))
        XCTAssertEqual(pilot.app.message, "deleted")
        XCTAssertEqual(pilot.app.draft, "half a thought")
        XCTAssertTrue(pilot.lines.contains("▌  (deleted)"), pilot.lines.joined(separator: "\n"))
        XCTAssertEqual(try lastLine(), #"{"type":"delete","comment":"c2","author":"u1","created":"2025-04-17T10:01:00Z"}"#)
        XCTAssertEqual(try live.fileBodies(), ["body of c1", "(deleted)"])
        pause(pilot)
        pilot.press(.alt("c"))
        XCTAssertEqual(pilot.app.message, "this comment was deleted")
    }

    func testAnotherClientsEditOfTheFileShowsLive() throws {
        let pilot = try open()
        // Ann's other client (another process) appends an edit of her comment; bo's forged one is ignored.
        try ThreadFileWriter(path: live.path).append([
            .change(CommentChange(comment: "c2", author: "u1", created: LiveThreadFile.start + 30, kind: .edit(body: "fixed elsewhere"))),
            .change(CommentChange(comment: "c2", author: "u2", created: LiveThreadFile.start + 31, kind: .edit(body: "forged by bo"))),
        ])
        XCTAssertTrue(LiveThreadFile.pump(pilot.app) { pilot.app.allComments.last?.body == "fixed elsewhere" })
        pause(pilot)
        pilot.draw()
        XCTAssertTrue(pilot.lines.contains("   fixed elsewhere"), pilot.lines.joined(separator: "\n"))
        XCTAssertFalse(pilot.lines.contains { $0.contains("forged") })
    }
}

extension OwnCommentEditFlowTests {
    /// Another program holds the file's lock (`post` indexing a big file): the edit waits about
    /// a second at most, fails with the reason and stays in the composer; Enter again sends it.
    func testAnEditMeetingAHeldLockFailsSoonAndIsKept() throws {
        let pilot = try open()
        pilot.press(KeyPress(.up, .alt))
        pause(pilot)
        pilot.press(.alt("c"))
        pilot.type("!")
        pause(pilot)
        let lock = try AppendLock(path: live.path)
        lock.release(after: 30)   // a client that wrongly waits fails the test rather than hang it
        let started = Date()
        pilot.press(KeyPress(.enter))
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "the screen did not wait for the lock")
        let message = try XCTUnwrap(pilot.app.message)
        XCTAssertTrue(message.hasPrefix("not edited, the edit is kept: ") && message.contains("holds the file's lock"), message)
        XCTAssertEqual(pilot.app.draft, "teh plan, @bo!")
        XCTAssertEqual(try live.fileBodies(), ["body of c1", "teh plan, @bo"])
        lock.release()
        pause(pilot)
        pilot.press(KeyPress(.enter))
        XCTAssertEqual(pilot.app.message, "edited")
        XCTAssertEqual(try live.fileBodies(), ["body of c1", "teh plan, @bo!"])
    }
}

extension OwnCommentEditFlowTests {
    /// While an edit holds the composer, Alt-R's quote and Alt-W wait for it: nothing else gets
    /// into the edit, and the comment edited is not deleted under it.
    func testKeysThatWouldPutOtherTextIntoTheEditWaitForIt() throws {
        let pilot = try open()
        pilot.press(KeyPress(.up, .alt))
        pause(pilot)
        pilot.press(.alt("c"))
        pause(pilot)
        pilot.press(.alt("r"))
        XCTAssertEqual(pilot.app.draft, "teh plan, @bo", "no quote in the edit")
        XCTAssertEqual(pilot.app.message, "editing your comment — Enter saves · Esc leaves")
        pause(pilot)
        pilot.press(.alt("w"))
        pilot.press(KeyPress(.character("y")))
        XCTAssertEqual(pilot.app.draft, "teh plan, @bo y", "no question was asked")
        XCTAssertEqual(try live.fileBodies(), ["body of c1", "teh plan, @bo"])
        pause(pilot)
        pilot.press(KeyPress(.escape))
        XCTAssertEqual(pilot.app.draft, "half a thought")
    }
}
