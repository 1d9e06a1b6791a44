import Foundation
import XCTest
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// A thread opened from a link looks for the linked comment where it can be: among what a
/// catch-up brings before any older page, in older pages up to a bound (also for the post's
/// own message), and it stops, saying so, when a page cannot load.
final class LinkedCommentSearchTests: XCTestCase {
    private func opened(linking id: String, catchingUp: Bool = false, post: String? = nil) throws -> (Pilot, QueuedThreadSource) {
        let source = try QueuedThreadSource(thread: ThreadFixture.numbered(400).thread, hasOlder: true)
        source.isCatchingUp = catchingUp
        source.linkedCommentID = id
        source.postCommentID = post
        let app = CommentApp(source: source, me: ThreadFixture.ann, columns: 60, rows: 16)
        app.wallTime = ThreadFixture.now
        return (Pilot(app: app, screen: HeadlessScreen(columns: 60, rows: 16)), source)
    }

    private func page(_ n: Int) -> [Comment] {
        [Comment(id: "old\(n)", author: ThreadFixture.bo.id, created: ThreadFixture.start, body: "an older one \(n)")]
    }

    func testAMessageNewerThanTheOfflineCopyIsFoundInTheCatchUpWithoutPagingBack() throws {
        let (pilot, source) = try opened(linking: "new", catchingUp: true)
        XCTAssertTrue(pilot.app.message?.hasPrefix(CommentApp.linkedCatchUpMessage) == true, "\(pilot.app.message ?? "")")
        // The page the opening asks for (the feed is not laid out yet) comes: no other is asked for.
        let opening = source.olderRequests
        source.deliver(.olderComments(page(1), hasMore: true))
        pilot.app.sourceIsReady()
        XCTAssertEqual(source.olderRequests, opening, "no older page while the copy catches up")
        source.deliver(.commentsAppended([Comment(id: "new", author: ThreadFixture.bo.id, created: ThreadFixture.now,
                                                  body: "the linked message")]))
        source.deliver(.caughtUp)
        pilot.app.sourceIsReady()
        pilot.settle()
        XCTAssertEqual(pilot.selectedCommentIndex.flatMap { pilot.comment(at: $0)?.id }, "new")
        XCTAssertNil(pilot.app.seeksLinked)
        XCTAssertEqual(source.olderRequests, opening)
    }

    func testAfterTheCatchUpWithoutItOlderPagesAreLookedThrough() throws {
        let (pilot, source) = try opened(linking: "old2", catchingUp: true)
        source.deliver(.caughtUp)
        pilot.app.sourceIsReady()
        XCTAssertEqual(source.olderRequests, 1)
        source.deliver(.olderComments(page(1), hasMore: true))
        pilot.app.sourceIsReady()
        source.deliver(.olderComments(page(2), hasMore: true))
        pilot.app.sourceIsReady()
        pilot.settle()
        XCTAssertEqual(pilot.selectedCommentIndex.flatMap { pilot.comment(at: $0)?.id }, "old2")
    }

    func testALinkToThePostsOwnMessageLoadsNoMoreThanTheBoundOfPages() throws {
        let (pilot, source) = try opened(linking: "post", post: "post")
        for n in 1...(CommentApp.linkedCommentPages + 5) {
            source.deliver(.olderComments(page(n), hasMore: true))
            pilot.app.sourceIsReady()
        }
        XCTAssertEqual(source.olderRequests, CommentApp.linkedCommentPages)
        XCTAssertEqual(pilot.app.message, "the linked comment is further back than \(CommentApp.linkedCommentPages) pages")
    }

    func testALinkToThePostsOwnMessageEndsAtTheHeader() throws {
        let (pilot, source) = try opened(linking: "post", post: "post")
        source.deliver(.olderComments(page(1), hasMore: false))
        pilot.app.sourceIsReady()
        XCTAssertNil(pilot.app.seeksLinked)
        XCTAssertEqual(source.olderRequests, 1)
    }

    func testAPageThatFailsToLoadStopsTheSearchAndSaysSo() throws {
        let (pilot, source) = try opened(linking: "far")
        XCTAssertEqual(source.olderRequests, 1)
        source.deliver(.problem(ThreadProblem(.notLoaded, "could not load older comments: timed out")))
        pilot.app.sourceIsReady()
        XCTAssertNil(pilot.app.seeksLinked)
        XCTAssertEqual(pilot.app.message, "stopped looking for the linked comment: could not load older comments: timed out")
    }
}
