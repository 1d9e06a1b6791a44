import Foundation
import XCTest
import ScrollEngine
@testable import ThreadModel
@testable import CommentTUI

/// Enter never waits for the thread file's lock (issue 22, item 3): while another writer holds it
/// the comment shows as pending, keys go on working (well under the 10 s the lock is held), it lands when the lock is let go, and
/// quitting meanwhile keeps it as the draft.
final class LockedAppendTests: XCTestCase {
    private func type(_ text: String, into app: CommentApp) { LiveThreadFile.type(text, into: app) }

    /// Seconds `body` takes, by the test's clock.
    private func seconds(_ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        body()
        let elapsed = clock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// A live thread file opened in the app while another writer holds its lock (let go after
    /// 10 s at the latest, a safety net: the test lets go itself).
    private func openWithTheLockHeld() throws -> (LiveThreadFile, CommentApp, AppendLock) {
        let file = try LiveThreadFile(self)
        let app = try file.openApp()
        let lock = try AppendLock(path: file.path)
        lock.release(after: 10)
        return (file, app, lock)
    }

    /// `text` sent while the lock is held, then failed: the file goes (and comes back as a
    /// directory, so the append cannot recreate it) while the append waits, and the lock is let go.
    private func failedAppend(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> (LiveThreadFile, CommentApp, String) {
        let (thread, app, lock) = try openWithTheLockHeld()
        type("\(text)\r", into: app)
        try FileManager.default.removeItem(atPath: thread.path)
        try FileManager.default.createDirectory(atPath: thread.path, withIntermediateDirectories: false)
        lock.release()
        let mine = try XCTUnwrap(app.allComments.last?.id, file: file, line: line)
        XCTAssertTrue(LiveThreadFile.pump(app) { if case .failed = app.unconfirmedComments[mine] { true } else { false } }, file: file, line: line)
        return (thread, app, mine)
    }

    func testEnterWhileAnotherWriterHoldsTheLockShowsPendingAndLandsOnRelease() throws {
        let (file, app, lock) = try openWithTheLockHeld()
        let enter = seconds { type("held back\r", into: app) }
        XCTAssertLessThan(enter, 2, "Enter waited \(enter) s for the lock")
        XCTAssertEqual(app.draft, "", "the draft went out")
        let mine = try XCTUnwrap(app.allComments.last)
        XCTAssertEqual(mine.body, "held back")
        XCTAssertEqual(app.unconfirmedComments[mine.id], .sending, "shown as on its way")
        XCTAssertEqual(app.message, "sending…")
        // Keys go on working while the lock is held.
        let key = seconds { type("next", into: app) }
        XCTAssertLessThan(key, 2)
        XCTAssertEqual(app.draft, "next")
        XCTAssertFalse(try file.fileBodies().contains("held back"), "nothing is written while another holds the lock")

        lock.release()
        XCTAssertTrue(LiveThreadFile.pump(app) { app.unconfirmedComments.isEmpty }, "the append finished once the lock was free")
        XCTAssertEqual(app.message, "posted")
        XCTAssertEqual(try file.fileBodies().filter { $0 == "held back" }.count, 1)
        XCTAssertEqual(app.allComments.map(\.id), try file.fileCommentIDs(), "shown once, where the file has it")
    }

    func testQuittingWhileTheLockIsHeldKeepsTheUnsentCommentAsTheDraft() throws {
        let (file, app, lock) = try openWithTheLockHeld()
        type("first thought\r", into: app)
        type("second", into: app)
        let quit = seconds {
            app.keepUnsentInDraft()
            XCTAssertNil(app.prepareToExit())
        }
        XCTAssertLessThan(quit, 2, "quitting waited \(quit) s")
        XCTAssertEqual(app.draftMarkdown, "first thought\n\nsecond", "the unsent comment came back into the draft")

        // Once the lock is free, the withdrawn append is not written after all.
        lock.release()
        let source = try XCTUnwrap(app.source as? ThreadFileSource)
        XCTAssertTrue(source.waitForAppends(timeout: 5))
        XCTAssertFalse(try file.fileBodies().contains("first thought"), "withdrawn, so never written")
        // The next start has it as the draft.
        let again = try file.openApp()
        XCTAssertEqual(again.composer.draft.markdown, "first thought\n\nsecond")
    }

    func testAnAppendThatFailsLaterIsKeptAsTheDraftAtQuit() throws {
        let (_, app, _) = try failedAppend("doomed")
        XCTAssertTrue(app.message?.contains("not sent") == true, app.message ?? "")
        app.keepUnsentInDraft()
        XCTAssertEqual(app.draftMarkdown, "doomed", "a comment that failed is kept too")
    }

    func testAFailedAppendDiscardedWithAltXIsNotKeptAtQuit() throws {
        let (_, app, mine) = try failedAppend("doomed")
        _ = app.update(.key(KeyPress(.character("x"), .alt)), at: app.now + 1.0)
        _ = app.update(.key(KeyPress(.character("x"), .alt)), at: app.now + 1.0)   // none selected: the second confirms
        XCTAssertFalse(app.allComments.contains { $0.id == mine })
        app.keepUnsentInDraft()
        XCTAssertEqual(app.draftMarkdown, "", "discarded, so not brought back into the draft")
    }

    func testAFailedAppendTakenBackWhileTheDraftCannotBeSavedStaysInTheOutbox() throws {
        let (_, app, mine) = try failedAppend("precious")
        struct DiskFull: Error, CustomStringConvertible { var description: String { "No space left on device" } }
        app.composer.save = { _ in throw DiskFull() }
        _ = app.update(.key(KeyPress(.character("t"), .alt)))
        XCTAssertEqual(app.draftMarkdown, "precious")
        XCTAssertEqual(app.message, "taken back into the composer; the draft is not saved (No space left on device), so the outbox keeps it too")
        let outbox = CommentOutbox(files: try XCTUnwrap((app.source as? ThreadFileSource)?.stateFiles))
        XCTAssertEqual(try outbox.unsent().map(\.txn), [mine], "a crash now would not lose it")
    }
}
