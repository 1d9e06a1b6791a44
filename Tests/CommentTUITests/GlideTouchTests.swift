import Foundation
@testable import ScrollEngine
import XCTest
@testable import CommentTUI
import CommentTUITestSupport

/// The feed as a touch screen: any key or click stops a glide and does nothing else, the
/// scrollbar is held like the content and ends snapped, the wheel works wherever it is.
/// (The feed's scrolling tests, with their clock.)
extension FeedScrollingTests {
    private func mouse(_ button: MouseButton, _ action: MouseAction, column: Int = 10, row: Int) -> InputEvent {
        .mouse(MouseEvent(button, action, column: column, row: row))
    }

    /// An app gliding up after a fast wheel burst.
    private func gliding() -> (CommentApp, HeadlessScreen) {
        let (app, screen) = ThreadFixture.numbered(200).open(columns: 40, rows: 16)
        screen.show(app)
        for _ in 0..<6 {
            send(app, mouse(.wheelUp, .press, row: 6))
            _ = run(app, screen, for: 0.02)
        }
        _ = run(app, screen, for: 0.2)
        XCTAssertEqual(app.scrollPhase, .decelerating)
        return (app, screen)
    }

    func testAClickDuringAGlideOnlyStopsIt() {
        let (app, screen) = gliding()
        let row = app.feedRect.row + 3
        send(app, mouse(.left, .press, row: row))
        let stoppedAt = app.feedOffset
        send(app, mouse(.left, .release, row: row))
        _ = run(app, screen, for: 1)
        XCTAssertEqual(app.feedOffset, stoppedAt, "stopped where it was drawn")
        XCTAssertNil(app.selectedCommentIndex, "the click did not act on the comment under it")
        send(app, mouse(.left, .press, row: row))
        send(app, mouse(.left, .release, row: row))
        XCTAssertNotNil(app.selectedCommentIndex, "a click at rest does")
    }

    func testAnyKeyOrAClickOutsideTheFeedStopsAGlide() {
        for event: InputEvent in [.key(KeyPress(.escape)), .key(KeyPress(.character("x"))), .key(KeyPress(.left)),
                                  .key(KeyPress(.function(1))), .key(KeyPress(.character("l"), .ctrl)), .paste("hi")] {
            let (app, screen) = gliding()
            send(app, event)
            let stoppedAt = app.feedOffset
            XCTAssertEqual(app.scrollPhase, .idle, "\(event)")
            _ = run(app, screen, for: 1)
            XCTAssertEqual(app.feedOffset, stoppedAt, "\(event)")
        }
        let (app, screen) = gliding()
        let draft = app.draftDocument
        send(app, mouse(.left, .press, row: app.composerRect.row))
        send(app, mouse(.left, .release, row: app.composerRect.row))
        XCTAssertEqual(app.scrollPhase, .idle)
        _ = run(app, screen, for: 0.1)
        XCTAssertEqual(app.draftDocument, draft)
    }

    func testTheScrollbarIsHeldLikeTheContentAndEndsSnapped() {
        let post = String(repeating: "The post runs on and on over many rows of the header. ", count: 6)
        let (app, screen) = ThreadFixture.numbered(30, body: post).open(columns: 40, rows: 16)
        screen.show(app)
        let bar = app.scrollbarRect
        let column = bar.column + bar.width - 1
        let thumb = app.scrollbarThumb
        let thumbRow = bar.row + thumb.start
        // Pressing the thumb moves nothing.
        let before = app.feedOffset
        send(app, mouse(.left, .press, column: column, row: thumbRow))
        XCTAssertEqual(app.feedOffset, before, "a press on the thumb alone moves nothing")
        XCTAssertEqual(app.scrollPhase, .tracking)
        // Dragged to just below the top: the header is part-way collapsed while the button is held.
        var phases: [ScrollPhase] = []
        for row in stride(from: thumbRow - 1, through: bar.row, by: -1) {
            send(app, mouse(.left, .drag, column: column, row: row))
            phases += run(app, screen, for: 0.05)
        }
        app.feed.scroll.jump(toFraction: 0.004, at: ScrollInstant(seconds: time))
        XCTAssertGreaterThan(app.headerProgress, 0)
        XCTAssertLessThan(app.headerProgress, 1, "part-way: \(app.feedOffset)")
        phases += run(app, screen, for: 0.5)
        XCTAssertEqual(phases.last, .tracking, "no snap while the button is held")
        send(app, mouse(.left, .release, column: column, row: bar.row))
        phases += run(app, screen, for: 1)
        XCTAssertEqual(phases.last, .idle, "\(phases)")
        XCTAssertTrue(app.headerProgress == 0 || app.headerProgress == 1, "snapped: \(app.headerProgress)")
    }

    func testTheWheelScrollsTheFeedOverTheHeaderComposerAndStatusBar() {
        let (app, screen) = ThreadFixture.numbered(60).open(columns: 40, rows: 16)
        screen.show(app)
        for row in [0, app.composerRect.row, 15] {
            let before = app.feedOffset
            send(app, mouse(.wheelUp, .press, row: row))
            _ = run(app, screen, for: 1)
            XCTAssertEqual(app.feedOffset, before - 3, "wheel on row \(row)")
        }
    }

    func testAKeysAnimationChangesTheStatusBarOnceAndARowKeyNotAtAll() {
        let (app, screen) = ThreadFixture.numbered(60).open(columns: 40, rows: 16)
        screen.show(app)
        send(app, .key(KeyPress(.pageUp)))
        screen.show(app)
        let first = screen.plainLines.last!
        var seen: Set<String> = [first]
        for _ in 0..<30 {
            time += 1.0 / 60
            app.advance(to: ScrollInstant(seconds: time))
            screen.show(app)
            seen.insert(screen.plainLines.last!.replacingOccurrences(of: "animating", with: "idle"))
        }
        XCTAssertEqual(seen.count, 2, "where the page goes shows at once: \(seen)")
        let before = screen.frameCount
        send(app, .key(KeyPress(.up, .ctrl)))
        screen.show(app)
        XCTAssertEqual(app.scrollPhase, .idle, "a row from rest is made at once")
        XCTAssertEqual(screen.frameCount, before + 1)
    }
}
