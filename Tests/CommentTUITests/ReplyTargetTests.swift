import Foundation
import XCTest
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// What a reply quotes follows its target: an edit or deletion is quoted anew, and a target that
/// could not be asked for (no connection) is asked for again instead of said unavailable.
final class ReplyTargetTests: XCTestCase {
    private func queued(_ fixture: ThreadFixture = .numbered(3), hasOlder: Bool = false) throws -> (Pilot, QueuedThreadSource) {
        let source = try QueuedThreadSource(thread: fixture.thread, hasOlder: hasOlder)
        let app = CommentApp(source: source, me: ThreadFixture.ann, columns: 60, rows: 16)
        app.wallTime = ThreadFixture.now
        return (Pilot(app: app, screen: HeadlessScreen(columns: 60, rows: 16)), source)
    }

    private func comment(_ id: String, _ body: String, replyTo: String? = nil) -> Comment {
        Comment(id: id, author: ThreadFixture.bo.id, created: ThreadFixture.start, body: body, replyTo: replyTo)
    }

    private func arrive(_ pilot: Pilot, _ source: QueuedThreadSource, _ update: ThreadUpdate) {
        source.deliver(update)
        pilot.app.sourceIsReady()
        pilot.settle()
    }

    func testAnEditedOrDeletedTargetIsQuotedAnew() throws {
        let (pilot, source) = try queued()
        arrive(pilot, source, .commentsAppended([comment("q", "the question"), comment("r", "the answer", replyTo: "q")]))
        XCTAssertTrue(pilot.lines.contains { $0.contains("↪ Bo 日本: the question") }, "\(pilot.lines)")
        arrive(pilot, source, .commentEdited(comment("q", "the better question")))
        XCTAssertTrue(pilot.lines.contains { $0.contains("↪ Bo 日本: the better question") }, "\(pilot.lines)")
        arrive(pilot, source, .commentEdited(comment("q", "(deleted)")))
        XCTAssertTrue(pilot.lines.contains { $0.contains("↪ Bo 日本: (deleted)") }, "\(pilot.lines)")
    }

    func testATargetThatCouldNotBeAskedForIsAskedAgainNotGivenUp() throws {
        let (pilot, source) = try queued()
        arrive(pilot, source, .commentsAppended([comment("r", "the answer", replyTo: "far")]))
        XCTAssertEqual(source.replyTargetRequests, ["far"])
        arrive(pilot, source, .replyTargetLoaded(id: "far", target: .unreachable))
        XCTAssertFalse(pilot.lines.contains { $0.contains("not available") }, "\(pilot.lines)")
        pilot.app.feed.invalidateLayouts()
        pilot.draw()
        XCTAssertEqual(source.replyTargetRequests, ["far", "far"], "asked again at the next layout")
        arrive(pilot, source, .replyTargetLoaded(id: "far", target: .unavailable))
        XCTAssertTrue(pilot.lines.contains { $0.contains("↪ a comment that is not available") }, "\(pilot.lines)")
        pilot.app.feed.invalidateLayouts()
        pilot.draw()
        XCTAssertEqual(source.replyTargetRequests, ["far", "far"], "a 403/404 is for good")
    }
}
