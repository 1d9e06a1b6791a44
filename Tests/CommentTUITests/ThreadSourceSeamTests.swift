import Foundation
import XCTest
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// The app through `ThreadSource` alone, as a network source will drive it: updates from another
/// thread wake the loop, sends are pending until confirmed, older pages arrive above the reader.
final class ThreadSourceSeamTests: XCTestCase {
    private func queued(_ fixture: ThreadFixture, hasOlder: Bool = false) throws -> (Pilot, QueuedThreadSource) {
        let source = try QueuedThreadSource(thread: fixture.thread, hasOlder: hasOlder)
        let app = CommentApp(source: source, me: ThreadFixture.ann, columns: 40, rows: 12)
        app.wallTime = ThreadFixture.now
        return (Pilot(app: app, screen: HeadlessScreen(columns: 40, rows: 12)), source)
    }

    private func comment(_ id: String, _ body: String) -> Comment {
        Comment(id: id, author: ThreadFixture.bo.id, created: ThreadFixture.start, body: body)
    }

    func testUpdatesFromAnotherThreadWakeTheLoop() throws {
        let (pilot, source) = try queued(.numbered(3))
        let input = try FileDescriptor.pipe()
        input.read.setNonBlockingAndCloseOnExec()
        defer { input.read.close(); input.write.close() }
        let loop = AppLoop(app: pilot.app, session: pilot.screen, input: input.read, signals: nil, now: { 0 })
        let arrived = comment("n1", "from another server")
        let sync = Thread { source.deliver(.commentsAppended([arrived])) }
        sync.start()
        // The loop blocks in poll() until the source's pipe wakes it (bounded: a minute at most).
        for _ in 0..<100 where !pilot.app.allComments.contains(where: { $0.id == "n1" }) {
            XCTAssertNil(try loop.runOnce())
        }
        XCTAssertEqual(pilot.app.nextDeadline?.seconds ?? 0, 1.0 / 60, accuracy: 1e-9, "its arrival asks for the next frame")
        pilot.settle()   // this loop's clock stands still: the transition ends here
        XCTAssertTrue(pilot.screen.plainLines.contains("   from another server"), "\(pilot.screen.plainLines)")
    }

    /// A comment held because the thread stopped taking comments (an encrypted room) is not
    /// offered a retry that would be refused.
    func testAHeldCommentIsNotOfferedARetry() throws {
        let (pilot, source) = try queued(.numbered(3))
        pilot.type("typed as the room was encrypted\n")
        source.deliver(.sendingHeld("no sending here"))
        source.deliver(.sendFailed(commentID: source.sent[0].id, reason: "held in the outbox"))
        pilot.app.sourceIsReady()
        XCTAssertEqual(pilot.app.message, "not sent: held in the outbox — Alt-T edits · Alt-X discards")
    }

    func testASentCommentIsPendingUntilTheSourceConfirmsIt() throws {
        let (pilot, source) = try queued(.numbered(3))
        pilot.type("hello\n")
        XCTAssertEqual(pilot.app.message, "sending…")
        XCTAssertTrue(pilot.lines.contains("   hello"), "shown at once")
        XCTAssertTrue(pilot.draft.isEmpty)
        source.deliver(.sendConfirmed(commentID: source.sent[0].id))
        pilot.app.sourceIsReady()
        XCTAssertEqual(pilot.app.message, "posted")
        pilot.type("again\n")
        source.deliver(.sendFailed(commentID: source.sent[1].id, reason: "room is read-only"))
        pilot.app.sourceIsReady()
        XCTAssertEqual(pilot.app.message, "not sent: room is read-only — Enter retries · Alt-T edits · Alt-X discards")
        XCTAssertTrue(pilot.messageIsError)
        pilot.draw()
        XCTAssertTrue(pilot.lines.contains { $0.contains("· not sent: room is read-only") }, "kept in the feed, marked: \(pilot.lines)")
        XCTAssertTrue(pilot.lines.contains("   again"))

        // Enter with an empty draft sends it again, under the same id (a server de-duplicates).
        pilot.type("\n")
        XCTAssertEqual(source.sent.map(\.id), [source.sent[0].id, source.sent[1].id, source.sent[1].id])
        XCTAssertEqual(pilot.app.message, "sending again…")
        pilot.draw()
        XCTAssertTrue(pilot.lines.contains { $0.contains("sending…") }, "\(pilot.lines)")
        source.deliver(.sendConfirmed(commentID: source.sent[1].id))
        pilot.app.sourceIsReady()
        pilot.draw()
        XCTAssertFalse(pilot.lines.contains { $0.contains("sending…") || $0.contains("not sent") }, "\(pilot.lines)")
    }

    func testACommentNotSentIsTakenBackIntoTheComposerOrDiscardedByItsKeys() throws {
        let (pilot, source) = try queued(.numbered(3))
        pilot.type("first try\n")
        pilot.advance(by: 1)
        pilot.type("second try\n")
        for comment in source.sent { source.deliver(.sendFailed(commentID: comment.id, reason: "room is read-only")) }
        pilot.app.sourceIsReady()
        pilot.advance(by: 1)
        XCTAssertEqual(pilot.lines.filter { $0.hasPrefix(" Ann @ann") && $0.contains("· not sent: room") }.count, 2, "\(pilot.lines)")

        // Alt-T with none selected takes the oldest back into the composer, before what is typed.
        pilot.type("and more")
        pilot.advance(by: 1)
        pilot.press(KeyPress(.character("t"), .alt))
        XCTAssertEqual(pilot.draftMarkdown, "first try\n\nand more")
        XCTAssertEqual(pilot.app.message, "taken back into the composer")
        pilot.advance(by: 1)
        XCTAssertFalse(pilot.lines.contains("   first try"), "gone from the feed: \(pilot.lines)")
        XCTAssertEqual(pilot.lines.filter { $0.hasPrefix(" Ann @ann") && $0.contains("· not sent") }.count, 1)

        // Alt-X discards the selected one; with nothing left, the keys say so.
        pilot.press(.altUp)
        pilot.advance(by: 1)
        pilot.press(KeyPress(.character("x"), .alt))
        pilot.advance(by: 1)
        XCTAssertFalse(pilot.lines.contains { $0.contains("second try") || $0.contains("not sent") }, "\(pilot.lines)")
        XCTAssertEqual(pilot.app.commentCount, 3)
        pilot.press(KeyPress(.character("x"), .alt))
        XCTAssertEqual(pilot.app.message, "no comment waits unsent")
        pilot.advance(by: 1)
        pilot.press(.enter)
        XCTAssertEqual(source.sent.count, 3, "Enter sends the draft taken back, as a new comment")
        XCTAssertEqual(source.sent.last?.body, "first try\n\nand more")
    }

    func testOpeningWithCommentsNotSentSaysTheOldestsReason() throws {
        let source = try QueuedThreadSource(thread: ThreadFixture.numbered(3).thread)
        // Many, so an order other than theirs (a dictionary's) would show up.
        let waiting = (1...12).map { Comment(id: "w\($0)", author: ThreadFixture.ann.id, created: ThreadFixture.start, body: "waiting \($0)") }
        source.unsentComments = waiting
        source.notSentReasons = Dictionary(uniqueKeysWithValues: waiting.map { ($0.id, "reason \($0.body)") })
        let app = CommentApp(source: source, me: ThreadFixture.ann, columns: 40, rows: 12)
        XCTAssertEqual(app.message, "12 comments not sent: reason waiting 1 — Enter retries · Alt-T edits · Alt-X discards")
    }

    func testAltXWithNoCommentNotSentSelectedDiscardsOnlyWhenPressedAgainWithin3Seconds() throws {
        let (pilot, source) = try queued(.numbered(3))
        pilot.type("keep me\n")
        source.deliver(.sendFailed(commentID: source.sent[0].id, reason: "room is read-only"))
        pilot.app.sourceIsReady()
        pilot.advance(by: 1)
        pilot.press(KeyPress(.character("x"), .alt))
        XCTAssertEqual(pilot.app.message, "Alt-X again to discard the oldest comment not sent")
        XCTAssertTrue(pilot.lines.contains("   keep me"), "one key discards nothing: \(pilot.lines)")
        // Too late to confirm: it asks again.
        pilot.advance(by: 4)
        pilot.press(KeyPress(.character("x"), .alt))
        XCTAssertEqual(pilot.app.message, "Alt-X again to discard the oldest comment not sent")
        XCTAssertTrue(pilot.lines.contains("   keep me"), "\(pilot.lines)")
        // Pressed again within 3 s: discarded.
        pilot.advance(by: 1)
        pilot.press(KeyPress(.character("x"), .alt))
        XCTAssertEqual(pilot.app.message, "comment discarded")
        pilot.advance(by: 1)
        XCTAssertFalse(pilot.lines.contains("   keep me"), "\(pilot.lines)")
        XCTAssertEqual(pilot.app.commentCount, 3)
    }

    func testOlderCommentsArriveAboveWithoutMovingTheReadingPosition() throws {
        let (pilot, source) = try queued(.numbered(30), hasOlder: true)
        XCTAssertEqual(source.olderRequests, 1, "the first page is short: the one before it is asked for at once")
        pilot.press(.ctrlHome)
        pilot.settle()
        for _ in 0..<7 { pilot.press(.ctrlDown) }
        pilot.settle()
        let anchor = pilot.feedTop
        let feed = pilot.feedRect
        let before = Array(pilot.lines[feed.row..<feed.maxRow])
        XCTAssertGreaterThan(anchor.comment, 0)

        let older = (1...20).map { comment("o\($0)", "older \($0)") }
        source.deliver(.olderComments(older, hasMore: false))
        pilot.app.sourceIsReady()
        pilot.draw()
        XCTAssertEqual(Array(pilot.lines[feed.row..<feed.maxRow]), before, "the same rows at the same place")
        XCTAssertEqual(pilot.feedTop.comment, anchor.comment + 20)
        XCTAssertEqual(pilot.commentCount, 50, "the count grew")
        XCTAssertTrue(pilot.lines.last!.contains("/50"), pilot.lines.last!)
        pilot.app.feed.scroll._checkInvariants()

        pilot.press(.ctrlHome)
        pilot.settle()
        XCTAssertTrue(pilot.lines.contains("   older 1"), "the oldest comment is reachable: \(pilot.lines)")
        XCTAssertEqual(source.olderRequests, 1, "no more to ask for")
    }

    func testAGapIsAskedForAsItNearsTheViewAndFilledWithoutMovingTheReader() throws {
        let (pilot, source) = try queued(.numbered(3))
        source.deliver(.gap(id: "g"))
        source.deliver(.commentsAppended((1...300).map { comment("n\($0)", "new \($0)") }))
        pilot.app.sourceIsReady()
        pilot.settle()
        XCTAssertEqual(source.gapRequests, [], "300 comments below the gap: not near the view yet")
        // Paging up towards it asks for it once, however many frames it stays near.
        for _ in 0..<60 where source.gapRequests.isEmpty { pilot.press(.pageUp); pilot.settle() }
        XCTAssertEqual(source.gapRequests, ["g"])
        for _ in 0..<3 { pilot.press(.pageUp); pilot.settle() }
        XCTAssertEqual(source.gapRequests, ["g"])
        let feed = pilot.feedRect
        let before = Array(pilot.lines[feed.row..<feed.maxRow])
        XCTAssertTrue(before.contains { $0.hasPrefix("   new ") }, "\(before)")

        // Part of it comes (the gap stays above), then the rest: the reader's rows never move.
        source.deliver(.gapFilled(id: "g", comments: (4...9).map { comment("m\($0)", "missed \($0)") }, closed: false))
        pilot.app.sourceIsReady()
        pilot.draw()
        XCTAssertEqual(Array(pilot.lines[feed.row..<feed.maxRow]), before)
        XCTAssertEqual(source.gapRequests, ["g", "g"], "still near: the rest is asked for at once")
        source.deliver(.gapFilled(id: "g", comments: (1...3).map { comment("m\($0)", "missed \($0)") }, closed: true))
        pilot.app.sourceIsReady()
        pilot.draw()
        XCTAssertEqual(Array(pilot.lines[feed.row..<feed.maxRow]), before)
        let ids = pilot.app.allComments.map(\.id)
        XCTAssertEqual(Array(ids.dropFirst(3).prefix(10)), (1...9).map { "m\($0)" } + ["n1"])
        XCTAssertEqual(pilot.commentCount, 3 + 9 + 300)
        pilot.app.feed.scroll._checkInvariants()
    }

    func testAnEditReplacesACommentsText() throws {
        let (pilot, source) = try queued(.numbered(3))
        source.deliver(.commentEdited(Comment(id: "c3", author: ThreadFixture.bo.id, created: ThreadFixture.start, body: "rewritten")))
        pilot.app.sourceIsReady()
        pilot.draw()
        XCTAssertTrue(pilot.lines.contains("   rewritten"))
        XCTAssertFalse(pilot.lines.contains("   comment number 3"))
    }
}
