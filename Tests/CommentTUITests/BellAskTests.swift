import Foundation
import XCTest
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// The bell as the app asks the source: always (so the source can forget what it noted), and
/// never for what a reopening catches up on.
final class BellAskTests: XCTestCase {
    private func queued() throws -> (Pilot, QueuedThreadSource) {
        let source = try QueuedThreadSource(thread: ThreadFixture.numbered(3).thread)
        let app = CommentApp(source: source, me: ThreadFixture.ann, columns: 60, rows: 16)
        app.wallTime = ThreadFixture.now
        return (Pilot(app: app, screen: HeadlessScreen(columns: 60, rows: 16)), source)
    }

    private func arrive(_ comments: [Comment], _ pilot: Pilot, _ source: QueuedThreadSource) -> Int {
        let before = pilot.screen.bellCount
        source.deliver(.commentsAppended(comments))
        pilot.app.sourceIsReady()
        pilot.draw()
        return pilot.screen.bellCount - before
    }

    func testTheSourceIsAskedAboutACommentWithAPillToo() throws {
        let (pilot, source) = try queued()
        XCTAssertEqual(arrive([Comment(id: "p", author: ThreadFixture.bo.id, created: ThreadFixture.now, body: "hey @ann")], pilot, source), 1)
        XCTAssertEqual(source.callsAsked, ["p"])
    }

    func testNoBellForWhatWasWrittenBeforeTheOpening() throws {
        let (pilot, source) = try queued()
        source.openedAt = ThreadFixture.now
        let old = Comment(id: "old", author: ThreadFixture.bo.id, created: ThreadFixture.now.addingTimeInterval(-600), body: "hey @ann")
        XCTAssertEqual(arrive([old], pilot, source), 0, "caught up on, not live")
        let live = Comment(id: "live", author: ThreadFixture.bo.id, created: ThreadFixture.now.addingTimeInterval(1), body: "hey @ann")
        XCTAssertEqual(arrive([live], pilot, source), 1)
    }
}
