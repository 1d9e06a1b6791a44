import Foundation
import XCTest
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// Alt-J loads older pages only when they can hold what the reply answers.
final class ReplyJumpTests: XCTestCase {
    /// A reply to `target` arrives and is selected.
    private func reply(to target: String, _ pilot: Pilot, _ source: QueuedThreadSource) {
        source.deliver(.commentsAppended([Comment(id: "r", author: ThreadFixture.bo.id, created: ThreadFixture.start,
                                                  body: "the answer", replyTo: target)]))
        pilot.app.sourceIsReady()
        pilot.settle()
        _ = pilot.app.handle(.key(KeyPress(.up, .alt)))
    }

    func testAltJToAnUnavailableTargetLoadsNoPages() throws {
        let (pilot, source) = try ThreadFixture.numbered(300).queuedPilot(columns: 60, rows: 16)
        reply(to: "gone", pilot, source)
        source.deliver(.replyTargetLoaded(id: "gone", target: .unavailable))
        pilot.app.sourceIsReady()
        let before = source.olderRequests
        _ = pilot.app.handle(.key(.alt("j")))
        XCTAssertEqual(pilot.app.message, "the comment replied to is not available")
        XCTAssertEqual(source.olderRequests, before)
    }

    func testAnUnavailableAnswerStopsAnAltJUnderWay() throws {
        let (pilot, source) = try ThreadFixture.numbered(300).queuedPilot(columns: 60, rows: 16)
        reply(to: "gone", pilot, source)
        let before = source.olderRequests
        _ = pilot.app.handle(.key(.alt("j")))
        XCTAssertEqual(source.olderRequests, before + 1, "not known yet: older pages are looked through")
        source.deliver(.replyTargetLoaded(id: "gone", target: .unavailable))
        source.deliver(.olderComments([], hasMore: true))
        pilot.app.sourceIsReady()
        XCTAssertEqual(pilot.app.message, "the comment replied to is not available")
        XCTAssertEqual(source.olderRequests, before + 1, "no page after the server said it is not there")
    }

    func testAltJToThePostGoesToTheHeader() throws {
        let (pilot, source) = try ThreadFixture.numbered(300).queuedPilot(columns: 60, rows: 16)
        source.postCommentID = "post"
        reply(to: "post", pilot, source)
        _ = pilot.app.handle(.key(.alt("j")))
        XCTAssertTrue(pilot.isWalkingToTop, "on through older pages to the post, as Ctrl-Home")
        XCTAssertEqual(pilot.app.message, "loading older… 301 comments · any key stops")
        XCTAssertNil(pilot.app.seeksReplied)
    }
}
