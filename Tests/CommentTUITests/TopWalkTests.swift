import Foundation
import XCTest
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// Ctrl-Home's walk through older pages to the post: the status bar says how far it came, a key
/// stops it, and the pointer passing over (F2's motion reports) does not.
final class TopWalkTests: XCTestCase {
    /// An older page of `count` comments arrives, a second after the last.
    private func page(_ count: Int, from start: Int, hasMore: Bool, _ pilot: Pilot, _ source: QueuedThreadSource) {
        let list = (0..<count).map {
            Comment(id: "o\(start + $0)", author: ThreadFixture.bo.id, created: ThreadFixture.start, body: "older \(start + $0)")
        }
        source.deliver(.olderComments(list, hasMore: hasMore))
        pilot.app.sourceIsReady()
        pilot.advance(by: 1)
        pilot.runFrames()
    }

    func testTheWalkSaysHowFarItCameAndThePointerPassingOverDoesNotStopIt() throws {
        let (pilot, source) = try ThreadFixture.numbered(20).queuedPilot(columns: 70, rows: 16)
        pilot.press(.ctrlHome)
        XCTAssertEqual(pilot.app.message, "loading older… 20 comments · any key stops")
        _ = pilot.app.handle(.mouse(MouseEvent(.none, .move, column: 10, row: 5)))
        XCTAssertTrue(pilot.isWalkingToTop, "motion is no input")
        page(30, from: 0, hasMore: true, pilot, source)
        XCTAssertEqual(pilot.app.message, "loading older… 50 comments · any key stops")
        XCTAssertTrue(pilot.lines.last!.contains("loading older… 50 comments"), pilot.lines.last!)
        page(5, from: 30, hasMore: false, pilot, source)
        XCTAssertFalse(pilot.isWalkingToTop)
        XCTAssertNil(pilot.app.message, "at the post: the line goes")
    }

    func testAKeyStopsTheWalk() throws {
        let (pilot, source) = try ThreadFixture.numbered(20).queuedPilot(columns: 70, rows: 16)
        pilot.press(.ctrlHome)
        page(30, from: 0, hasMore: true, pilot, source)
        XCTAssertTrue(pilot.isWalkingToTop)
        pilot.press(.down)
        XCTAssertFalse(pilot.isWalkingToTop)
        XCTAssertNotEqual(pilot.app.message?.hasPrefix("loading older…"), true)
        page(30, from: 30, hasMore: true, pilot, source)
        XCTAssertGreaterThanOrEqual(pilot.feedTop.comment, 30, "the view stays below the page that came, not at the top")
    }
}
