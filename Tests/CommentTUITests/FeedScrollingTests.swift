import Foundation
@testable import ScrollEngine
@testable import ThreadModel
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
        XCTAssertEqual(screen.lines[0], " Hello ␛[2Jworld · @ann · 40 comments", "collapsed at the newest comments")
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

    private let postBody = "The post body, long enough to wrap over more than one row of the header."

    /// Drags the feed by `rows` (up when positive) and holds still before releasing.
    private func dragAndHold(_ app: CommentApp, _ screen: HeadlessScreen, rows: Int, from row: Int = 12) {
        send(app, .mouse(MouseEvent(.left, .press, column: 10, row: row)))
        send(app, .mouse(MouseEvent(.left, .drag, column: 10, row: row - rows)))
        run(app, screen, for: 0.4)
        send(app, .mouse(MouseEvent(.left, .release, column: 10, row: row - rows)))
    }

    func testAHeaderLeftHalfCollapsedSnapsToTheNearerEnd() {
        for mode in [SnapMode.projected, .afterDebounce] {
            let (app, screen) = makeApp(body: postBody)
            app.snapMode = mode
            send(app, .key(KeyPress(.home, .ctrl)))
            run(app, screen, for: 1)
            let distance = Double(app.feedScroll.postRows)
            XCTAssertEqual(distance, 3, "author line and two body rows")
            dragAndHold(app, screen, rows: 1)
            XCTAssertEqual(app.feedScroll.model.contentOffset, 1, "held part-way")
            run(app, screen, for: 1)
            XCTAssertEqual(app.feedScroll.headerProgress, 0, "\(mode): a third of the way snaps back open")
            dragAndHold(app, screen, rows: 2)
            let phases = run(app, screen, for: 1)
            XCTAssertEqual(app.feedScroll.headerProgress, 1, "\(mode): two thirds of the way snaps shut")
            XCTAssertEqual(phases.last, .idle)
            XCTAssertEqual(screen.lines[0], " Hello ␛[2Jworld · @ann · 40 comments")
        }
    }

    func testADragMovesTheFeedAndAStillPressIsAClick() {
        let (app, screen) = makeApp()
        let start = app.feedScroll.model.contentOffset
        dragAndHold(app, screen, rows: -4)
        XCTAssertEqual(app.feedScroll.model.contentOffset, start - 4, "the content follows the pointer")
        XCTAssertNil(app.selectedComment, "a drag is not a click")
        run(app, screen, for: 1)
        send(app, .mouse(MouseEvent(.left, .press, column: 10, row: 5)))
        XCTAssertEqual(app.feedScroll.model.phase, .tracking)
        send(app, .mouse(MouseEvent(.left, .release, column: 10, row: 5)))
        XCTAssertEqual(app.feedScroll.model.phase, .idle)
        XCTAssertNotNil(app.selectedComment, "a press and release in place selects the comment")
    }

    func testAFlingLeavesMomentum() {
        let (app, screen) = makeApp(comments: 200)
        send(app, .mouse(MouseEvent(.left, .press, column: 10, row: 3)))
        for step in 1...8 {
            time += 0.01
            send(app, .mouse(MouseEvent(.left, .drag, column: 10, row: 3 + step)))
        }
        let released = app.feedScroll.model.contentOffset
        send(app, .mouse(MouseEvent(.left, .release, column: 10, row: 11)))
        XCTAssertEqual(app.feedScroll.model.phase, .decelerating)
        XCTAssertGreaterThan(abs(app.feedScroll.model.velocity), 50)
        let phases = run(app, screen, for: 3)
        XCTAssertEqual(phases.last, .idle)
        XCTAssertLessThan(app.feedScroll.model.contentOffset, released - 10, "glides on after the release")
    }

    func testTheScrollbarShowsThePlaceAndADragOnItJumps() {
        let (app, screen) = makeApp(comments: 200)
        let feed = app.regions.feed
        let bar = feed.column + feed.width - 1
        XCTAssertEqual(screen.screen[bar, feed.maxRow - 1].text, "┃", "at the bottom the thumb is at the bottom")
        XCTAssertEqual(screen.screen[bar, feed.row].text, "│")
        send(app, .mouse(MouseEvent(.left, .press, column: bar, row: feed.row)))
        send(app, .mouse(MouseEvent(.left, .release, column: bar, row: feed.row)))
        run(app, screen, for: 0.1)
        XCTAssertEqual(app.feedScroll.model.contentOffset, 0, "the top of the bar is the top of the thread")
        XCTAssertEqual(screen.screen[bar, feed.row + app.feedScroll.postRowsShown].text, "┃", "below the header's rows")
        let barTop = app.chromeRect.row
        send(app, .mouse(MouseEvent(.left, .press, column: bar, row: barTop)))
        send(app, .mouse(MouseEvent(.left, .drag, column: bar, row: feed.row + feed.height / 2)))
        send(app, .mouse(MouseEvent(.left, .release, column: bar, row: feed.row + feed.height / 2)))
        run(app, screen, for: 0.1)
        let middle = app.feedScroll.threadFraction
        XCTAssertEqual(middle, 0.5, accuracy: 0.1)
        XCTAssertNil(app.selectedComment, "the scrollbar is not a comment")
    }

    func testNewCommentsAreFollowedAtTheBottomAndCountedElsewhere() {
        let (app, screen) = makeApp()
        func arrive(_ id: String) {
            app.receive(ThreadFileUpdate(records: [(.comment(Comment(id: id, author: "u2", created: testNow, body: "arrived \(id)")), 1)], problems: []))
        }
        arrive("x1")
        run(app, screen, for: 0.1)
        XCTAssertTrue(screen.plainLines.contains("   arrived x1"), "followed at the bottom")
        XCTAssertEqual(app.newCount, 0)
        send(app, .key(KeyPress(.pageUp)))
        run(app, screen, for: 1)
        arrive("x2")
        arrive("x3")
        run(app, screen, for: 0.1)
        XCTAssertEqual(app.newCount, 2)
        let feed = app.regions.feed
        let marker = screen.plainLines[feed.maxRow - 1]
        XCTAssertTrue(marker.hasSuffix("↓ 2 new"), marker)
        send(app, .mouse(MouseEvent(.left, .press, column: feed.width - 4, row: feed.maxRow - 1)))
        send(app, .mouse(MouseEvent(.left, .release, column: feed.width - 4, row: feed.maxRow - 1)))
        XCTAssertEqual(app.feedScroll.model.phase, .animating, "a click on the marker scrolls down, animated")
        run(app, screen, for: 1)
        XCTAssertTrue(screen.plainLines.contains("   arrived x3"))
        XCTAssertEqual(app.newCount, 0)
    }

    func testSearchIsIncrementalEnterGoesOlderEscLeaves() {
        let (app, screen) = makeApp(comments: 60)
        func key(_ press: KeyPress) { send(app, .key(press)); run(app, screen, for: 0.5) }
        key(.ctrl("s"))
        XCTAssertTrue(screen.lines[app.regions.composer.row].hasPrefix("search:"))
        for c in "number 5" { key(KeyPress(.character(c))) }
        XCTAssertEqual(app.selectedComment, 58, "the newest match: comment number 59")
        key(KeyPress(.enter))
        XCTAssertEqual(app.selectedComment, 57)
        key(KeyPress(.character("0")))
        XCTAssertEqual(app.selectedComment, 49, "typing narrows from the current match: number 50")
        XCTAssertTrue(screen.plainLines.contains("▌  comment number 50"), "the match is scrolled into view, selected")
        key(KeyPress(.enter))
        XCTAssertEqual(app.selectedComment, 49, "the only match wraps to itself")
        key(KeyPress(.escape))
        XCTAssertNil(app.search)
        XCTAssertTrue(screen.lines[app.regions.composer.row].hasPrefix("›"))
    }

    func testF3StreamsScrollEvents() {
        let (app, screen) = makeApp(body: postBody)
        send(app, .key(KeyPress(.function(3))))
        send(app, wheel(false))
        run(app, screen, for: 1)
        let panel = screen.plainLines.joined(separator: "\n")
        XCTAssertTrue(panel.contains("scroll events (F3 closes)"), panel)
        XCTAssertTrue(panel.contains("phase idle → interacting"), panel)
        XCTAssertTrue(panel.contains("phase interacting → idle"), panel)
        XCTAssertTrue(panel.contains("debounced end at"), panel)
        XCTAssertTrue(app.scrollEvents.lines.contains { $0.contains("offset ") })
        send(app, .key(KeyPress(.home, .ctrl)))
        run(app, screen, for: 1)
        dragAndHold(app, screen, rows: 2)
        run(app, screen, for: 1)
        XCTAssertTrue(app.scrollEvents.lines.contains { $0.contains("snap 2.0 → 3.0") }, app.scrollEvents.lines.joined(separator: "\n"))
        send(app, .key(KeyPress(.function(3))))
        run(app, screen, for: 0.1)
        XCTAssertFalse(screen.plainLines.contains { $0.contains("scroll events") })
    }

    func testTheStatusBarNamesThePhase() {
        let (app, screen) = makeApp()
        XCTAssertTrue(screen.plainLines.last!.contains(" · idle · "))
        send(app, wheel(false))
        screen.present(app.render(), full: false)
        XCTAssertTrue(screen.plainLines.last!.contains(" · interacting · "))
        send(app, .key(KeyPress(.pageUp)))
        screen.present(app.render(), full: false)
        XCTAssertTrue(screen.plainLines.last!.contains(" · animating · "))
    }

    func testAThreadWithNoCommentsYetTakesItsFirstOnes() {
        let thread = CommentThread(id: "t", title: "Empty", author: "u1", created: testThreadStart, body: "post",
                                   users: [User(id: "u1", handle: "ann", name: "Ann")])
        let app = CommentApp(thread: thread, me: thread.user(id: "u1")!, threadLabel: "t", columns: 40, rows: 12)
        let screen = HeadlessScreen(columns: 40, rows: 12)
        screen.present(app.render(), full: false)
        XCTAssertTrue(screen.plainLines.last!.contains("comment 0/0"))
        for i in 1...3 {
            app.receive(ThreadFileUpdate(records: [(.comment(Comment(id: "n\(i)", author: "u1", created: testThreadStart, body: "first \(i)")), i)], problems: []))
            screen.present(app.render(), full: false)
            app.feedScroll._checkInvariants()
        }
        XCTAssertTrue(screen.plainLines.contains("   first 3"))
    }

    func testFramesSayHowFarTheFeedMoved() {
        let (app, screen) = makeApp()
        send(app, .key(KeyPress(.up, .ctrl)))
        run(app, screen, for: 0.5)
        XCTAssertNil(app.render().scroll, "no move since the last frame")
        send(app, wheel(false))
        let frame = app.render()
        XCTAssertEqual(frame.scroll, FrameScroll(rows: app.regions.feed.row..<app.regions.feed.maxRow, shift: -3),
                       "a notch up moves the content down three rows")
    }
}
