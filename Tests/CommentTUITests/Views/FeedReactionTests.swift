import XCTest
import ThreadModel
import CommentTUITestSupport
@testable import CommentTUI

/// A comment's reactions, drawn as a row under its text: counted by key, the reader's own in
/// reverse video, hostile keys as placeholders, and changed without laying the text out again.
final class FeedReactionTests: XCTestCase {
    private let legend: [Character: CellStyle] = [
        "a": Theme.authorName, "o": Theme.ownName, "h": Theme.handle, "d": Theme.dim, "r": Theme.ownReaction,
    ]

    /// A feed over three numbered comments, with `reactions` by comment id.
    private func draw(_ reactions: [String: [ReactionCount]], width: Int = 40, rows: Int = 5) -> CellBuffer {
        let thread = ThreadFixture.numbered(3).thread
        let layout = FeedLayout(width: width)
        let source = FeedLayout.Source(
            item: { .comment(thread.comments[$0]) }, user: { thread.user(id: $0) }, handleID: { _ in nil },
            isExpanded: { _ in false }, reactions: { reactions[$0] ?? [] })
        let view = FeedView(anchor: .top, commentCount: 3, postRows: 0, ownUserID: "u1", selected: nil, now: ThreadFixture.now,
                            layout: { layout.layout(of: $0, source) }, revealed: { _ in [] })
        var buffer = CellBuffer(columns: width, rows: rows)
        view.draw(into: &buffer, rect: CellRect(column: 0, row: 0, width: width, height: rows))
        return buffer
    }

    func testReactionsShowUnderTheTextByKeyTheReadersOwnReversed() {
        let counts = [ReactionCount(key: "+1", count: 3, includesMine: true), ReactionCount(key: "ok", count: 1, includesMine: false)]
        assertScreen(draw(["c1": counts]), [
            " Bo 日本 @bo · 2025-04-17", " aaaaaaa hhhddddddddddddd",
            "   comment number 1", "",
            "   +1 3  ok 1", "   rrrr    dd",
            "", "",
            " Ann @ann · 2025-04-17", " ooo hhhhddddddddddddd",
        ], legend: legend)
    }

    /// A key carrying an escape sequence, a bidi override and a line break reaches the screen as
    /// placeholders, and a long one is cut to a few columns.
    func testAHostileKeyShowsAsPlaceholdersAndALongOneIsCut() {
        let counts = [ReactionCount(key: "\u{1B}[2J\u{202E}\n", count: 2, includesMine: false),
                      ReactionCount(key: String(repeating: "long", count: 1000), count: 1, includesMine: false)]
        let buffer = draw(["c1": counts], rows: 3)
        assertScreen(buffer, [
            " Bo 日本 @bo · 2025-04-17", " aaaaaaa hhhddddddddddddd",
            "   comment number 1", "",
            "   ␛[2J�␊ 2  longlon… 1", "         dd          dd",
        ], legend: legend)
        for column in 0..<buffer.columns {
            XCTAssertFalse(buffer[column, 2].text.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" }, "column \(column)")
        }
    }

    /// Keys past what fits in the row are counted at its end, and the row stays one row.
    func testKeysPastTheWidthAreCounted() {
        let counts = (1...40).map { ReactionCount(key: "k\($0)", count: 1, includesMine: false) }
        let row = ReactionRow(counts, width: 30)
        XCTAssertEqual(row?.text, "k1 1  k2 1  k3 1  k4 1  +36")
        XCTAssertNil(ReactionRow([], width: 30), "no reactions: no row")
    }

    /// The app keeps no more counts per comment than a row looks at: a hostile room's thousands
    /// of keys on one comment cost nothing more.
    func testTheAppKeepsAtMostARowsKeysPerComment() {
        let pilot = ThreadFixture.numbered(3).pilot(columns: 40, rows: 16)
        let many = (0..<1000).map { ReactionCount(key: "k\($0)", count: 1000 - $0, includesMine: false) }
        pilot.app.receive([.reactionsChanged(commentID: "c2", many)])
        XCTAssertEqual(pilot.app.reactions["c2"], Array(many.prefix(ReactionRow.maxKeys)), "the first (most people) kept")
    }

    /// A reaction arriving redraws its comment's reactions: the text is not parsed again.
    func testAReactionChangesTheRowWithoutLayingTheTextOutAgain() {
        let pilot = ThreadFixture.numbered(3).pilot(columns: 40, rows: 16)
        pilot.app.receive([])
        pilot.draw()
        let laidOut = pilot.app.feed.bytesLaidOut
        XCTAssertGreaterThan(laidOut, 0)
        pilot.app.receive([.reactionsChanged(commentID: "c2", [ReactionCount(key: "ok", count: 2, includesMine: false)])])
        pilot.draw()
        XCTAssertTrue(pilot.lines.contains("   ok 2"), "\(pilot.lines)")
        XCTAssertEqual(pilot.app.feed.bytesLaidOut, laidOut, "the text's layout is kept")
        pilot.app.receive([.reactionsChanged(commentID: "c2", [])])
        pilot.draw()
        XCTAssertFalse(pilot.lines.contains("   ok 2"), "the last reaction taken away: no row")
        XCTAssertEqual(pilot.app.feed.bytesLaidOut, laidOut)
    }

    /// A new reaction flashes its row once; one taken back does not; `--reduce-motion` shows
    /// the end at once.
    func testANewReactionFlashesItsRowOnceUnlessMotionIsReduced() {
        for reduced in [false, true] {
            let pilot = ThreadFixture.numbered(3).pilot(columns: 40, rows: 16)
            pilot.app.reduceMotion = reduced
            pilot.app.receive([.reactionsChanged(commentID: "c2", [ReactionCount(key: "ok", count: 1, includesMine: false)])])
            pilot.advance(by: 0.1)
            let row = try! XCTUnwrap(pilot.lines.firstIndex(of: "   ok 1"))
            let flashed = pilot.screen.screen[3, row].style != .plain
            XCTAssertEqual(flashed, !reduced, "reduced: \(reduced)")
            pilot.settle()
            XCTAssertEqual(pilot.screen.screen[3, row].style, .plain, "the flash is over")
            pilot.app.receive([.reactionsChanged(commentID: "c2", [ReactionCount(key: "ok", count: 2, includesMine: false)])])
            pilot.app.receive([.reactionsChanged(commentID: "c2", [ReactionCount(key: "ok", count: 1, includesMine: false)])])
            pilot.settle()
            pilot.app.receive([.reactionsChanged(commentID: "c2", [])])
            pilot.app.receive([.reactionsChanged(commentID: "c2", [ReactionCount(key: "ok", count: 1, includesMine: false)])])
            pilot.advance(by: 0.1)
            XCTAssertEqual(pilot.screen.screen[3, row].style != .plain, !reduced, "back after none: new again")
        }
    }

    /// A reaction arriving after the reader sat still for a second, then a minute (the loop
    /// asleep in `poll()`, no frame drawn): its flash is timed from its arrival, so it is drawn
    /// in frames after it comes, not over before the first one.
    func testAReactionAfterALongStillnessFlashesInFramesFromItsArrival() throws {
        let (pilot, source) = try ThreadFixture.numbered(3).queuedPilot(columns: 40, rows: 16)
        for (n, stillness) in [1.0, 60.0].enumerated() {
            pilot.idle(for: stillness)
            source.deliver(.reactionsChanged(commentID: "c2", [ReactionCount(key: "ok", count: n + 1, includesMine: false)]))
            pilot.takeUpdates()
            let row = try XCTUnwrap(pilot.lines.firstIndex(of: "   ok \(n + 1)"), "\(pilot.lines)")
            XCTAssertNotEqual(pilot.screen.screen[3, row].style, .plain, "flashing on arrival after \(stillness) s")
            var flashing = 0
            pilot.runFrames { if $0.screen.screen[3, row].style != .plain { flashing += 1 } }
            XCTAssertGreaterThanOrEqual(flashing, 5, "drawn in frames after \(stillness) s still")
            XCTAssertEqual(pilot.screen.screen[3, row].style, .plain, "and over")
        }
    }

    /// Reactions read with the room (its opening, an older page) show without a flash: only a
    /// live change flashes, so a room does not open with every row flashing.
    func testReactionsReadWithTheRoomDoNotFlashALiveOneDoes() {
        let pilot = ThreadFixture.numbered(3).pilot(columns: 40, rows: 16)
        pilot.app.receive([.reactionsKnown(commentID: "c2", [ReactionCount(key: "ok", count: 1, includesMine: false)]),
                           .reactionsKnown(commentID: "c3", [ReactionCount(key: "hi", count: 1, includesMine: false)])])
        pilot.advance(by: 0.1)
        let row = try! XCTUnwrap(pilot.lines.firstIndex(of: "   ok 1"), "\(pilot.lines)")
        let other = try! XCTUnwrap(pilot.lines.firstIndex(of: "   hi 1"), "\(pilot.lines)")
        XCTAssertEqual(pilot.screen.screen[3, row].style, .plain, "shown, not flashed")
        XCTAssertEqual(pilot.screen.screen[3, other].style, .plain)
        pilot.app.receive([.reactionsChanged(commentID: "c2", [ReactionCount(key: "ok", count: 2, includesMine: false)])])
        pilot.advance(by: 0.1)
        XCTAssertNotEqual(pilot.screen.screen[3, row].style, .plain, "a live one flashes")
    }

    /// Taking back the last reaction of the comment being read (its row under the text goes)
    /// leaves the reading position where it was: the same text row stays on top.
    func testTheLastReactionTakenBackKeepsTheReadingPosition() {
        let pilot = ThreadFixture.numbered(20).pilot(columns: 40, rows: 12)
        pilot.app.receive([.reactionsKnown(commentID: "c6", [ReactionCount(key: "ok", count: 1, includesMine: true)])])
        pilot.settle()
        pilot.app.feed.scroll.scrollTo(comment: 5, row: 1, animated: false, at: pilot.app.feed.now)
        pilot.settle()
        let before = pilot.app.feed.anchor
        XCTAssertEqual(before, FeedAnchor(comment: 5, row: 1), "\(pilot.lines)")
        let top = pilot.lines.first
        pilot.app.receive([.reactionsChanged(commentID: "c6", [])])
        pilot.settle()
        XCTAssertEqual(pilot.app.feed.anchor, before, "the same row of the text on top: \(pilot.lines)")
        XCTAssertEqual(pilot.lines.first, top)
    }

    func testAReactionTakenBackDoesNotFlash() {
        let pilot = ThreadFixture.numbered(3).pilot(columns: 40, rows: 16)
        pilot.app.receive([.reactionsChanged(commentID: "c2", [ReactionCount(key: "ok", count: 2, includesMine: false)])])
        pilot.settle()
        pilot.app.receive([.reactionsChanged(commentID: "c2", [ReactionCount(key: "ok", count: 1, includesMine: false)])])
        pilot.advance(by: 0.1)
        let row = try! XCTUnwrap(pilot.lines.firstIndex(of: "   ok 1"))
        XCTAssertEqual(pilot.screen.screen[3, row].style, .plain)
    }
}
