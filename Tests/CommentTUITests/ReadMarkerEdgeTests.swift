import Foundation
import XCTest
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// Where the read marker must not go: onto the reader's comments still on their way (others
/// arrive above those), over comments the mention list covers, past a comment discarded.
final class ReadMarkerEdgeTests: XCTestCase {
    private func arrivals(_ count: Int) -> [Comment] {
        (1...count).map { Comment(id: "n\($0)", author: ThreadFixture.bo.id, created: ThreadFixture.start, body: "arrived \($0)") }
    }

    private func pilot(_ source: QueuedThreadSource, rows: Int = 12, me: User = ThreadFixture.ann) -> Pilot {
        let app = CommentApp(source: source, me: me, columns: 40, rows: rows)
        app.wallTime = ThreadFixture.now
        return Pilot(app: app, screen: HeadlessScreen(columns: 40, rows: rows))
    }

    /// Ann's comment is on screen, still sending; twenty arrive above it while she reads the
    /// newest: the marker stays where it was, it never stood on hers.
    func testCommentsArrivingAboveOursOnItsWayAreNotRead() throws {
        let source = try QueuedThreadSource(thread: ThreadFixture.numbered(3).thread)
        let pilot = pilot(source)
        pilot.type("hello\n")
        pilot.advance(by: 1)
        pilot.runFrames()
        XCTAssertTrue(pilot.lines.contains { $0.contains("sending…") }, pilot.lines.joined(separator: "\n"))
        source.deliver(.commentsAppended(arrivals(20)))
        pilot.app.sourceIsReady()
        pilot.advance(by: 1)
        pilot.runFrames()
        XCTAssertTrue(pilot.lines.contains("   arrived 20"), pilot.lines.joined(separator: "\n"))
        XCTAssertEqual(pilot.app.readMarker, ReadMarker(commentID: "c3", position: 2), "arrived 1… were never on screen")
    }

    /// Reopened with a comment of Ann's still to send after her marker: it is no unread comment,
    /// and no place for the marker, so those arriving above it are not read unseen.
    func testOursWaitingAtOpeningHoldsNoMarker() throws {
        let waiting = Comment(id: "w1", author: ThreadFixture.ann.id, created: ThreadFixture.now, body: "still to send")
        let source = try QueuedThreadSource(thread: ThreadFixture.numbered(3).thread, readMarker: ReadMarker(commentID: "c3", position: 2),
                                            unsent: [waiting])
        let pilot = pilot(source)
        XCTAssertNil(pilot.firstUnreadIndex, "her own comment is not unread")
        XCTAssertNil(pilot.app.message)
        source.deliver(.commentsAppended(arrivals(20)))
        pilot.app.sourceIsReady()
        pilot.advance(by: 1)
        pilot.runFrames()
        XCTAssertTrue(pilot.lines.contains("   arrived 20"), pilot.lines.joined(separator: "\n"))
        XCTAssertEqual(pilot.app.readMarker, ReadMarker(commentID: "c3", position: 2))
    }

    /// The mention list grows up over the newest comments: those it covers are not read.
    func testCommentsUnderTheMentionListAreNotRead() {
        let pilot = ThreadFixture.numbered(30).read(by: ThreadFixture.cy).pilot(columns: 40, rows: 14)
        let top = pilot.lines.compactMap { line in line.range(of: "comment number ").flatMap { Int(line[$0.upperBound...]) } }.min() ?? 0
        pilot.type("@")
        pilot.settle()
        XCTAssertTrue(pilot.isMentionListOpen)
        // Read up to the comment above the screen's first: every one shown joins the marker.
        pilot.app.restore(ReadMarker(commentID: "c\(top - 1)", position: top - 2))
        pilot.advance(by: 1)
        pilot.runFrames()
        XCTAssertFalse(pilot.lines.contains("   comment number 30"), pilot.lines.joined(separator: "\n"))
        XCTAssertTrue(pilot.lines.contains("   comment number 29"), pilot.lines.joined(separator: "\n"))
        XCTAssertEqual(pilot.app.readMarker, ReadMarker(commentID: "c29", position: 28), "c30 was under the list")
    }

    /// A comment read and then taken out (a refused one discarded) leaves the read point on the
    /// comment before it, never on the next one, which was not read; one seen ahead goes too.
    func testARemovedCommentMovesNoMarkerForward() {
        let (app, _) = ThreadFixture.numbered(10).read(by: ThreadFixture.cy).open(rows: 14)
        app.restore(ReadMarker(commentID: "c5", position: 4))
        app.feed.markSeen(7...7)
        app.feed.commentsReplaced(at: 4, removed: 1, inserted: 0)
        XCTAssertEqual(app.feed.lastSeen, 3)
        XCTAssertEqual(app.feed.seenAhead, [6], "the one seen moved up with the rest")
        app.feed.commentsReplaced(at: 6, removed: 1, inserted: 0)
        XCTAssertEqual(app.feed.seenAhead, [], "gone with it, not left on the next")
    }

    /// A marker just above the opened comments (on an event before them in the page) is known:
    /// every opened comment is unread, and the read point moves from it though older pages
    /// are not loaded.
    func testAMarkerJustAboveTheOpenedCommentsMovesWithoutOlderPages() throws {
        let source = try QueuedThreadSource(thread: ThreadFixture.numbered(30).read(by: ThreadFixture.cy).thread, hasOlder: true,
                                            readMarker: ReadMarker(commentID: "", position: -1))
        let pilot = pilot(source, rows: 14, me: ThreadFixture.cy)
        XCTAssertEqual(pilot.unreadStatus, "30 unread · Alt-U", "exact: nothing older is unread")
        pilot.press(KeyPress(.character("u"), .alt))
        pilot.advance(by: 1)
        pilot.runFrames()
        let shown = pilot.lines.compactMap { line in line.range(of: "comment number ").flatMap { Int(line[$0.upperBound...]) } }
        XCTAssertEqual(shown.first, 1, pilot.lines.joined(separator: "\n"))
        XCTAssertEqual(pilot.app.readMarker?.commentID, "c\(shown.max() ?? 0)")
    }

    /// The source's search for a marker older than the page: among any events of a page, then
    /// after the newest comment at or before it; a page with none before it passes it on.
    func testAnOlderMarkerIsFoundAmongAPagesEvents() {
        func comment(_ id: String) -> Comment { Comment(id: id, author: "u2", created: ThreadFixture.start, body: id) }
        var onReaction = OlderReadMarker(eventID: "r")
        onReaction.look(in: ["c9", "c8"], comments: [comment("c8"), comment("c9")])
        XCTAssertFalse(onReaction.isFound)
        onReaction.look(in: ["c7", "r", "c6", "join", "c5"], comments: [comment("c5"), comment("c6"), comment("c7")])
        XCTAssertTrue(onReaction.isFound)
        XCTAssertEqual(onReaction.commentID, "c6")

        var inAPageOfState = OlderReadMarker(eventID: "join")
        inAPageOfState.look(in: ["name", "join", "topic"], comments: [])
        XCTAssertTrue(inAPageOfState.isFound)
        XCTAssertNil(inAPageOfState.commentID, "above what was read so far")
        inAPageOfState.look(in: ["c2", "c1"], comments: [comment("c1"), comment("c2")])
        XCTAssertEqual(inAPageOfState.commentID, "c2", "the newest comment before it")
    }
}
