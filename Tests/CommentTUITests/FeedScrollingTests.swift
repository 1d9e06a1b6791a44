import Foundation
import ScrollEngine
import ThreadModel
import XCTest
@testable import CommentTUI

/// The feed on the scroll engine: wheel bursts, keys, drags, the collapsing header, follow, search.
final class FeedScrollingTests: XCTestCase {
    private var time = 0.0

    private func makeApp(comments: Int = 40, body: String = "", columns: Int = 40, rows: Int = 16) -> (CommentApp, HeadlessScreen) {
        var thread = makeSmallThread(comments: comments)
        thread.body = body
        let app = CommentApp(thread: thread, me: thread.user(id: "u1")!, threadLabel: "t", columns: columns, rows: rows)
        app.wallTime = testNow
        let screen = HeadlessScreen(columns: columns, rows: rows)
        screen.present(app.render(), full: false)
        return (app, screen)
    }

    /// Sends an input at the test's clock.
    private func send(_ app: CommentApp, _ event: InputEvent) {
        _ = app.handle(event, at: ScrollInstant(seconds: time))
    }

    /// Advances the clock in frame steps, drawing each frame; returns the phases seen.
    @discardableResult
    private func run(_ app: CommentApp, _ screen: HeadlessScreen, for seconds: Double) -> [ScrollPhase] {
        var phases: [ScrollPhase] = []
        let end = time + seconds
        while time < end - 1e-9 {
            time = min(end, time + 1.0 / 60)
            app.advance(to: ScrollInstant(seconds: time))
            screen.present(app.render(), full: false)
            app.feedScroll._checkInvariants()
            if phases.last != app.feedScroll.model.phase { phases.append(app.feedScroll.model.phase) }
        }
        return phases
    }

    private func wheel(_ down: Bool, row: Int = 6) -> InputEvent {
        .mouse(MouseEvent(down ? .wheelDown : .wheelUp, .press, column: 5, row: row))
    }

    func testAWheelBurstInteractsThenDeceleratesThenRests() {
        let (app, screen) = makeApp()
        let start = app.feedScroll.model.contentOffset
        var phases: [ScrollPhase] = []
        for _ in 0..<6 {
            send(app, wheel(false))
            phases += run(app, screen, for: 0.02)
        }
        phases += run(app, screen, for: 3)
        XCTAssertEqual(phases.first, .interacting)
        XCTAssertTrue(phases.contains(.decelerating), "\(phases)")
        XCTAssertEqual(phases.last, .idle)
        XCTAssertLessThan(app.feedScroll.model.contentOffset, start - 6 * 3, "momentum carries past the notches' own rows")
    }

    func testASingleNotchIsAPreciseStep() {
        let (app, screen) = makeApp()
        let start = app.feedScroll.model.contentOffset
        send(app, wheel(false))
        run(app, screen, for: 1)
        XCTAssertEqual(app.feedScroll.model.contentOffset, start - 3)
        XCTAssertEqual(app.feedScroll.model.phase, .idle)
    }

    func testCtrlHomeAnimatesToThePostAndTheHeaderExpands() {
        let (app, screen) = makeApp(body: "The post body, long enough to wrap over more than one row of the header.")
        XCTAssertEqual(screen.lines[0], " Hello ␛[2Jworld · 40 comments", "collapsed at the newest comments")
        send(app, .key(KeyPress(.home, .ctrl)))
        XCTAssertEqual(app.feedScroll.model.phase, .animating)
        let phases = run(app, screen, for: 1)
        XCTAssertEqual(phases, [.animating, .idle])
        XCTAssertEqual(app.feedScroll.model.contentOffset, 0)
        XCTAssertEqual(app.feedScroll.headerProgress, 0)
        XCTAssertEqual(Array(screen.lines[0...4]), [
            " Hello ␛[2Jworld",
            " Ann @ann · 2025-04-17 10:00 · 40 comme",
            " The post body, long enough to wrap",
            " over more than one row of the header.",
            "────────────────────────────────────────",
        ])
    }
}
