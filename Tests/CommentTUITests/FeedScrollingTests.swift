import Foundation
@testable import ScrollEngine
@testable import ThreadModel
import XCTest
@testable import CommentTUI
import CommentTUITestSupport

/// The feed on the scroll engine: wheel bursts, keys, drags, the collapsing header, follow, search.
final class FeedScrollingTests: XCTestCase {
    var time = 0.0

    /// Sends an input at the test's clock.
    func send(_ app: CommentApp, _ event: InputEvent) {
        _ = app.handle(event, at: ScrollInstant(seconds: time))
    }

    /// Advances the clock in frame steps, drawing each frame; returns the phases seen.
    @discardableResult
    func run(_ app: CommentApp, _ screen: HeadlessScreen, for seconds: Double) -> [ScrollPhase] {
        var phases: [ScrollPhase] = []
        let end = time + seconds
        while time < end - 1e-9 {
            time = min(end, time + 1.0 / 60)
            app.advance(to: ScrollInstant(seconds: time))
            screen.show(app)
            app.feed.scroll._checkInvariants()
            if phases.last != app.scrollPhase { phases.append(app.scrollPhase) }
        }
        return phases
    }

    private func wheel(_ down: Bool, row: Int = 6) -> InputEvent {
        .mouse(MouseEvent(down ? .wheelDown : .wheelUp, .press, column: 5, row: row))
    }

    func testAWheelBurstInteractsThenDeceleratesThenRests() {
        let (app, screen) = ThreadFixture.numbered(40).open(columns: 40, rows: 16)
        screen.show(app)
        let start = app.scrollOffset
        var phases: [ScrollPhase] = []
        for _ in 0..<6 {
            send(app, wheel(false))
            phases += run(app, screen, for: 0.02)
        }
        phases += run(app, screen, for: 3)
        XCTAssertEqual(phases.first, .interacting)
        XCTAssertTrue(phases.contains(.decelerating), "\(phases)")
        XCTAssertEqual(phases.last, .idle)
        XCTAssertLessThan(app.scrollOffset, start - 6 * 3, "momentum carries past the notches' own rows")
    }

    func testASingleNotchIsAPreciseStep() {
        let (app, screen) = ThreadFixture.numbered(40).open(columns: 40, rows: 16)
        screen.show(app)
        let start = app.scrollOffset
        send(app, wheel(false))
        run(app, screen, for: 1)
        XCTAssertEqual(app.scrollOffset, start - 3)
        XCTAssertEqual(app.scrollPhase, .idle)
    }

    func testCtrlHomeAnimatesToThePostAndTheHeaderExpands() {
        let (app, screen) = ThreadFixture.numbered(40, body: "The post body, long enough to wrap over more than one row of the header.").open(columns: 40, rows: 16)
        screen.show(app)
        XCTAssertEqual(screen.lines[0], " Hello ␛[2Jworld · @ann · 40 comments", "collapsed at the newest comments")
        send(app, .key(KeyPress(.home, .ctrl)))
        XCTAssertEqual(app.scrollPhase, .animating)
        let phases = run(app, screen, for: 1)
        XCTAssertEqual(phases, [.animating, .idle])
        XCTAssertEqual(app.scrollOffset, 0)
        XCTAssertEqual(app.headerProgress, 0)
        XCTAssertEqual(Array(screen.lines[0...4]), [
            " Hello ␛[2Jworld",
            " Ann @ann · 2025-04-17 10:00",
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
            let (app, screen) = ThreadFixture.numbered(40, body: postBody).open(columns: 40, rows: 16)
            screen.show(app)
            app.snapMode = mode
            send(app, .key(KeyPress(.home, .ctrl)))
            run(app, screen, for: 1)
            let distance = Double(app.postRows)
            XCTAssertEqual(distance, 3, "author line and two body rows")
            dragAndHold(app, screen, rows: 1)
            XCTAssertEqual(app.scrollOffset, 1, "held part-way")
            run(app, screen, for: 1)
            XCTAssertEqual(app.headerProgress, 0, "\(mode): a third of the way snaps back open")
            dragAndHold(app, screen, rows: 2)
            let phases = run(app, screen, for: 1)
            XCTAssertEqual(app.headerProgress, 1, "\(mode): two thirds of the way snaps shut")
            XCTAssertEqual(phases.last, .idle)
            XCTAssertEqual(screen.lines[0], " Hello ␛[2Jworld · @ann · 40 comments")
        }
    }

    func testADragMovesTheFeedAndAStillPressIsAClick() {
        let (app, screen) = ThreadFixture.numbered(40).open(columns: 40, rows: 16)
        screen.show(app)
        let start = app.scrollOffset
        dragAndHold(app, screen, rows: -4)
        XCTAssertEqual(app.scrollOffset, start - 4, "the content follows the pointer")
        XCTAssertNil(app.selectedCommentIndex, "a drag is not a click")
        run(app, screen, for: 1)
        send(app, .mouse(MouseEvent(.left, .press, column: 10, row: 5)))
        XCTAssertEqual(app.scrollPhase, .tracking)
        send(app, .mouse(MouseEvent(.left, .release, column: 10, row: 5)))
        XCTAssertEqual(app.scrollPhase, .idle)
        XCTAssertNotNil(app.selectedCommentIndex, "a press and release in place selects the comment")
    }

    func testAFlingLeavesMomentum() {
        let (app, screen) = ThreadFixture.numbered(200).open(columns: 40, rows: 16)
        screen.show(app)
        send(app, .mouse(MouseEvent(.left, .press, column: 10, row: 3)))
        for step in 1...8 {
            time += 0.01
            send(app, .mouse(MouseEvent(.left, .drag, column: 10, row: 3 + step)))
        }
        let released = app.scrollOffset
        send(app, .mouse(MouseEvent(.left, .release, column: 10, row: 11)))
        XCTAssertEqual(app.scrollPhase, .decelerating)
        XCTAssertGreaterThan(abs(app.scrollVelocity), 50)
        let phases = run(app, screen, for: 3)
        XCTAssertEqual(phases.last, .idle)
        XCTAssertLessThan(app.scrollOffset, released - 10, "glides on after the release")
    }

    func testTheScrollbarShowsThePlaceAndADragOnItJumps() {
        let (app, screen) = ThreadFixture.numbered(200).open(columns: 40, rows: 16)
        screen.show(app)
        let feed = app.feedRect
        let bar = feed.column + feed.width - 1
        XCTAssertEqual(screen.screen[bar, feed.maxRow - 1].text, "┃", "at the bottom the thumb is at the bottom")
        XCTAssertEqual(screen.screen[bar, feed.row].text, "│")
        send(app, .mouse(MouseEvent(.left, .press, column: bar, row: feed.row)))
        send(app, .mouse(MouseEvent(.left, .release, column: bar, row: feed.row)))
        run(app, screen, for: 0.1)
        XCTAssertEqual(app.scrollOffset, 0, "the top of the bar is the top of the thread")
        XCTAssertEqual(screen.screen[bar, feed.row + app.postRowsShown].text, "┃", "below the header's rows")
        let barTop = app.scrollbarRect.row
        send(app, .mouse(MouseEvent(.left, .press, column: bar, row: barTop)))
        send(app, .mouse(MouseEvent(.left, .drag, column: bar, row: feed.row + feed.height / 2)))
        send(app, .mouse(MouseEvent(.left, .release, column: bar, row: feed.row + feed.height / 2)))
        run(app, screen, for: 0.1)
        let middle = app.threadFraction
        XCTAssertEqual(middle, 0.5, accuracy: 0.1)
        XCTAssertNil(app.selectedCommentIndex, "the scrollbar is not a comment")
    }

    func testNewCommentsAreFollowedAtTheBottomAndCountedElsewhere() {
        let (app, screen) = ThreadFixture.numbered(40).open(columns: 40, rows: 16)
        screen.show(app)
        func arrive(_ id: String) {
            app.receive(fileUpdates([.comment(Comment(id: id, author: "u2", created: ThreadFixture.now, body: "arrived \(id)"))]))
        }
        arrive("x1")
        run(app, screen, for: 0.1)
        XCTAssertTrue(screen.plainLines.contains("   arrived x1"), "followed at the bottom")
        XCTAssertEqual(app.newCommentsBelow, 0)
        send(app, .key(KeyPress(.pageUp)))
        run(app, screen, for: 1)
        arrive("x2")
        arrive("x3")
        run(app, screen, for: 0.1)
        XCTAssertEqual(app.newCommentsBelow, 2)
        let feed = app.feedRect
        let marker = screen.plainLines[feed.maxRow - 1]
        XCTAssertTrue(marker.hasSuffix("↓ 2 new"), marker)
        send(app, .mouse(MouseEvent(.left, .press, column: feed.width - 4, row: feed.maxRow - 1)))
        send(app, .mouse(MouseEvent(.left, .release, column: feed.width - 4, row: feed.maxRow - 1)))
        XCTAssertEqual(app.scrollPhase, .animating, "a click on the marker scrolls down, animated")
        run(app, screen, for: 1)
        XCTAssertTrue(screen.plainLines.contains("   arrived x3"))
        XCTAssertEqual(app.newCommentsBelow, 0)
    }

    func testSearchIsIncrementalEnterGoesOlderEscLeaves() {
        let (app, screen) = ThreadFixture.numbered(60).open(columns: 40, rows: 16)
        screen.show(app)
        func key(_ press: KeyPress) { send(app, .key(press)); run(app, screen, for: 0.5) }
        key(.ctrl("s"))
        XCTAssertTrue(screen.lines[app.composerRect.row].hasPrefix("search:"))
        for c in "number 5" { key(KeyPress(.character(c))) }
        XCTAssertEqual(app.selectedCommentIndex, 58, "the newest match: comment number 59")
        key(KeyPress(.enter))
        XCTAssertEqual(app.selectedCommentIndex, 57)
        key(KeyPress(.character("0")))
        XCTAssertEqual(app.selectedCommentIndex, 49, "typing narrows from the current match: number 50")
        XCTAssertTrue(screen.plainLines.contains("▌  comment number 50"), "the match is scrolled into view, selected")
        key(KeyPress(.enter))
        XCTAssertEqual(app.selectedCommentIndex, 49, "the only match wraps to itself")
        key(KeyPress(.escape))
        XCTAssertFalse(app.isSearchOpen)
        XCTAssertTrue(screen.lines[app.composerRect.row].hasPrefix("›"))
    }

    /// Enter past the oldest match wraps to the newest, as in less and vim, and the status bar
    /// says so; so it does when Enter comes back to the only match. The match is numbered among
    /// the matches (`match 1 of 8`), beside the place among the comments (`comment 6/66`): one
    /// number per meaning.
    func testSearchSaysWhenItWrapsToTheNewestAndWhenAMatchIsTheOnlyOne() {
        let pilot = ThreadFixture.numbered(66).pilot(columns: 120, rows: 16)
        // Frames as the loop draws them, until the jump to a match has come to rest.
        func key(_ press: KeyPress) { pilot.press(press); pilot.runFrames() }
        var status: String { pilot.lines.last! }
        key(.ctrl("s"))
        for c in "number 6" { key(KeyPress(.character(c))) }
        XCTAssertEqual(status, #" @ann · test · idle · comment 66/66 · search "number 6": match 8 of 8 (Enter: older)"#)
        for _ in 0..<7 { key(.enter) }
        XCTAssertEqual(status, #" @ann · test · idle · comment 6/66 · search "number 6": match 1 of 8 (Enter: older)"#)
        key(.enter)
        XCTAssertEqual(status, #" @ann · test · idle · comment 66/66 · search "number 6": match 8 of 8 · wrapped to the newest"#)
        key(.escape)
        key(.ctrl("s"))
        for c in "number 56" { key(KeyPress(.character(c))) }
        XCTAssertEqual(status, #" @ann · test · idle · comment 56/66 · search "number 56": match 1 of 1 (Enter: older)"#)
        key(.enter)
        XCTAssertEqual(pilot.selectedCommentIndex, 55, "the only match stays put")
        XCTAssertEqual(status, #" @ann · test · idle · comment 56/66 · search "number 56": match 1 of 1 · the only match"#)
    }

    /// The query is edited as a readline line: a paste goes into it (the composer is hidden under
    /// the search bar), Ctrl-W takes its last word, Ctrl-U all of it.
    func testAPasteGoesIntoTheQueryAndCtrlWAndCtrlUEditIt() {
        let pilot = ThreadFixture.numbered(66).pilot(columns: 120, rows: 16)
        // Frames as the loop draws them, until the jump to a match has come to rest.
        func key(_ press: KeyPress) { pilot.press(press); pilot.runFrames() }
        key(.ctrl("s"))
        _ = pilot.send(.paste("number\n5"))
        pilot.advance(by: 0.5)
        XCTAssertEqual(pilot.searchQuery, "number 5")
        XCTAssertEqual(pilot.selectedCommentIndex, 58, "the newest match: comment number 59")
        key(.ctrl("w"))
        XCTAssertEqual(pilot.searchQuery, "number ")
        key(.ctrl("u"))
        XCTAssertEqual(pilot.searchQuery, "")
        key(KeyPress(.backspace))
        XCTAssertEqual(pilot.searchQuery, "", "Backspace on an empty query does nothing")
        key(.escape)
        XCTAssertEqual(pilot.draft, "", "nothing reached the hidden composer")
    }

    func testF3StreamsScrollEvents() {
        let (app, screen) = ThreadFixture.numbered(40, body: postBody).open(columns: 40, rows: 16)
        screen.show(app)
        send(app, .key(KeyPress(.function(3))))
        send(app, wheel(false))
        run(app, screen, for: 1)
        let panel = screen.plainLines.joined(separator: "\n")
        XCTAssertTrue(panel.contains("scroll events (F3 closes)"), panel)
        XCTAssertTrue(panel.contains("phase idle → interacting"), panel)
        XCTAssertTrue(panel.contains("phase interacting → idle"), panel)
        XCTAssertTrue(panel.contains("debounced end at"), panel)
        XCTAssertTrue(app.scrollEventLines.contains { $0.contains("offset ") })
        send(app, .key(KeyPress(.home, .ctrl)))
        run(app, screen, for: 1)
        dragAndHold(app, screen, rows: 2)
        run(app, screen, for: 1)
        XCTAssertTrue(app.scrollEventLines.contains { $0.contains("snap 2.0 → 3.0") }, app.scrollEventLines.joined(separator: "\n"))
        send(app, .key(KeyPress(.function(3))))
        run(app, screen, for: 0.1)
        XCTAssertFalse(screen.plainLines.contains { $0.contains("scroll events") })
    }

    func testTheStatusBarNamesThePhase() {
        let (app, screen) = ThreadFixture.numbered(40).open(columns: 40, rows: 16)
        screen.show(app)
        XCTAssertTrue(screen.plainLines.last!.contains(" · idle · "))
        send(app, wheel(false))
        screen.show(app)
        XCTAssertTrue(screen.plainLines.last!.contains(" · interacting · "))
        send(app, .key(KeyPress(.pageUp)))
        screen.show(app)
        XCTAssertTrue(screen.plainLines.last!.contains(" · animating · "))
    }

    func testAThreadWithNoCommentsYetTakesItsFirstOnes() {
        let (app, screen) = ThreadFixture(title: "Empty", body: "post", users: [ThreadFixture.ann]).open()
        screen.show(app)
        XCTAssertTrue(screen.plainLines.last!.contains("comment 0/0"))
        for i in 1...3 {
            app.receive(fileUpdates([.comment(Comment(id: "n\(i)", author: "u1", created: ThreadFixture.start, body: "first \(i)"))]))
            screen.show(app)
            app.feed.scroll._checkInvariants()
        }
        XCTAssertTrue(screen.plainLines.contains("   first 3"))
    }

    func testFramesSayHowFarTheFeedMoved() {
        let (app, screen) = ThreadFixture.numbered(40).open(columns: 40, rows: 16)
        screen.show(app)
        send(app, .key(KeyPress(.up, .ctrl)))
        run(app, screen, for: 0.5)
        XCTAssertNil(app.render().scroll, "no move since the last frame")
        send(app, wheel(false))
        let frame = app.render()
        XCTAssertEqual(frame.scroll, FrameScroll(rows: app.feedRect.row..<app.feedRect.maxRow, shift: -3),
                       "a notch up moves the content down three rows")
    }
}
