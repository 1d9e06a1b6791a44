import Foundation
import ScrollEngine
@testable import ThreadModel
import XCTest
@testable import CommentTUI
import CommentTUITestSupport

/// Text effects drawn frame by frame, the clock advanced by the test: a spoiler's dissolve, an
/// arriving comment's transition, a mention's glow, a jump's flash; and none with reduced motion.
final class TextEffectTests: XCTestCase {
    /// One comment with a long spoiler, so the dissolve has cells to scatter.
    static var spoilers: ThreadFixture {
        var fixture = ThreadFixture(title: "Effects", users: [ThreadFixture.ann, ThreadFixture.bo])
        fixture.add(Comment(id: "c1", author: "u2", created: ThreadFixture.start, body: "see ||the butler did it in the library|| ok"))
        return fixture
    }

    /// The app at rest at the top, with the comment's spoiler on row 4 from column 7.
    private func openSpoilers(reduceMotion: Bool = false) -> Pilot {
        let pilot = Self.spoilers.pilot(columns: 60, rows: 16)
        pilot.app.reduceMotion = reduceMotion
        pilot.app.feed.scrollToTop()
        pilot.settle()
        return pilot
    }

    private let spoilerRow = 4
    private var spoilerColumns: Range<Int> { (FeedLayout.bodyIndent + 4)..<(FeedLayout.bodyIndent + 4 + 32) }

    private func clickSpoiler(_ pilot: Pilot) {
        pilot.send(.mouse(MouseEvent(.left, .press, column: spoilerColumns.lowerBound, row: spoilerRow)))
        pilot.send(.mouse(MouseEvent(.left, .release, column: spoilerColumns.lowerBound, row: spoilerRow)))
    }

    /// Whether each of the spoiler's cells shows its text (not the mask) on screen now.
    private func uncovered(_ pilot: Pilot) -> [Bool] {
        spoilerColumns.map { pilot.screen.screen[$0, spoilerRow].text != "░" }
    }

    /// Frames every 1/60 s until the app asks for none; the screens seen, and how many.
    private func runFrames(_ pilot: Pilot, limit: Int = 400, each: (Pilot) -> Void = { _ in }) -> Int {
        var frames = 0
        while let deadline = pilot.app.nextDeadline, frames < limit {
            pilot.advance(by: max(1.0 / 60, deadline - pilot.time))
            each(pilot)
            frames += 1
        }
        return frames
    }

    func testTheDissolveUncoversEveryCellExactlyOnceInAScatteredOrderAndEndsRevealed() {
        let pilot = openSpoilers()
        XCTAssertEqual(uncovered(pilot), Array(repeating: false, count: 32))
        clickSpoiler(pilot)
        let before = pilot.lines   // the click selected the comment too
        var changes = Array(repeating: 0, count: 32)
        var last = uncovered(pilot)
        var scattered = false
        let frames = runFrames(pilot) { pilot in
            let now = self.uncovered(pilot)
            for i in now.indices where now[i] != last[i] {
                XCTAssertTrue(now[i], "cell \(i) was covered again")
                changes[i] += 1
            }
            // Uncovered cells that are not a prefix: the order is not left to right.
            if let gap = now.firstIndex(of: false), now[gap...].contains(true) { scattered = true }
            last = now
            for row in pilot.lines.indices where row != self.spoilerRow && row < 14 {
                XCTAssertEqual(pilot.lines[row], before[row], "nothing else changes (row \(row))")
            }
        }
        XCTAssertEqual(changes, Array(repeating: 1, count: 32), "every cell uncovered exactly once")
        XCTAssertTrue(scattered)
        XCTAssertGreaterThanOrEqual(frames, 15, "about 300 ms of frames")
        XCTAssertLessThanOrEqual(frames, 20)
        XCTAssertNil(pilot.app.nextDeadline, "no frame is asked for once it ends")
        let still = openSpoilers(reduceMotion: true)
        clickSpoiler(still)
        XCTAssertEqual(pilot.lines, still.lines, "it ends equal to the revealed state")
    }

    func testAltSHidesThemAgainTheSameWay() {
        let pilot = openSpoilers()
        clickSpoiler(pilot)
        _ = runFrames(pilot)
        XCTAssertEqual(uncovered(pilot), Array(repeating: true, count: 32))
        pilot.send(.key(.alt("s")))
        var changes = Array(repeating: 0, count: 32)
        var last = uncovered(pilot)
        _ = runFrames(pilot) { pilot in
            let now = self.uncovered(pilot)
            for i in now.indices where now[i] != last[i] {
                XCTAssertFalse(now[i], "cell \(i) was uncovered again")
                changes[i] += 1
            }
            last = now
        }
        XCTAssertEqual(changes, Array(repeating: 1, count: 32))
        XCTAssertEqual(uncovered(pilot), Array(repeating: false, count: 32))
    }

    func testReducedMotionShowsTheEndStateInTheFirstFrame() {
        let pilot = openSpoilers(reduceMotion: true)
        clickSpoiler(pilot)
        XCTAssertEqual(uncovered(pilot), Array(repeating: true, count: 32))
        XCTAssertNil(pilot.app.nextDeadline)
        pilot.app.receive(fileUpdates([.comment(Comment(id: "n1", author: "u2", created: ThreadFixture.start, body: "hi @ann"))]))
        XCTAssertNil(pilot.app.nextDeadline, "no arrival, no glow")
    }

    /// A thread followed at its tail, and a comment from bo arriving into it.
    private func arrive(_ body: String, colorCount: Int = 256, reduceMotion: Bool = false) -> (pilot: Pilot, header: Int) {
        let pilot = ThreadFixture.numbered(6).pilot(columns: 60, rows: 16)
        pilot.app.colorCount = colorCount
        pilot.app.reduceMotion = reduceMotion
        pilot.settle()
        pilot.app.receive(fileUpdates([.comment(Comment(id: "n1", author: "u2", created: ThreadFixture.start, body: body))]))
        pilot.draw()
        // Where its header is: the comment is not drawn yet, so ask the layout.
        let feed = pilot.feedRect
        let header = (feed.row..<feed.maxRow).last { pilot.app.feed.scroll.position(atViewportRow: $0 - feed.row)?.comment == 6 } ?? 0
        let rows = pilot.app.feed.layout(6).rowCount
        return (pilot, header - rows + 1)
    }

    func testAnArrivalComesInLeftToRightAndEndsEqualToTheStaticLayout() {
        let (pilot, header) = arrive("arriving from the left, one column after another")
        XCTAssertGreaterThan(header, 0)
        let body = header + 1
        XCTAssertEqual(pilot.lines[body].trimmingCharacters(in: .whitespaces), "", "nothing of it at its first frame")
        var shown = 0
        let frames = runFrames(pilot) { pilot in
            let line = pilot.lines[body]
            let width = line.count - (line.reversed().firstIndex { $0 != " " }.map { line.distance(from: line.startIndex, to: $0.base) } ?? line.count)
            let visible = line.trimmingCharacters(in: .whitespaces).isEmpty ? 0 : line.count - (line.count - width)
            XCTAssertGreaterThanOrEqual(visible, shown, "the edge only moves right")
            shown = visible
        }
        XCTAssertGreaterThanOrEqual(frames, 12)
        XCTAssertLessThanOrEqual(frames, 18, "about 250 ms")
        let still = arrive("arriving from the left, one column after another", reduceMotion: true).pilot
        XCTAssertEqual(pilot.lines, still.lines, "it ends as the comment is laid out")
        XCTAssertEqual(pilot.screen.screen, still.screen.screen, "styles too")
    }

    func testAMentionOfTheReaderGlowsAndFadesWithTheTerminalsColours() {
        let (pilot, header) = arrive("hello @ann")
        let name = FeedLayout.gutter
        pilot.advance(by: 0.3)   // the arrival's transition is over
        XCTAssertEqual(pilot.screen.screen[name, header].style.background, .palette(127), "a magenta glow at first")
        var backgrounds: [TerminalColor] = []
        let frames = runFrames(pilot) { backgrounds.append($0.screen.screen[name, header].style.background) }
        XCTAssertEqual(backgrounds.last, .default, "gone after about 2 s")
        XCTAssertEqual(Set(backgrounds).count, EffectPalette.rampSteps, "the ramp's later colours, then none")
        XCTAssertLessThanOrEqual(frames, EffectPalette.rampSteps, "a frame only when the colour steps, not 120")

        let (plain, plainHeader) = arrive("hello @ann", colorCount: 8)
        plain.advance(by: 0.3)
        XCTAssertTrue(plain.screen.screen[name, plainHeader].style.attributes.contains(.reverse), "reverse where there is no ramp")
        _ = runFrames(plain)
        XCTAssertFalse(plain.screen.screen[name, plainHeader].style.attributes.contains(.reverse))
        XCTAssertEqual(plain.screen.screen[name, plainHeader].style.background, .default)
    }

    func testAltUFlashesTheFirstUnreadHeaderOnce() {
        var fixture = ThreadFixture.numbered(30).read(by: ThreadFixture.cy)
        fixture.label = "flash"
        let pilot = fixture.pilot(columns: 60, rows: 16)
        pilot.app.restore(ReadMarker(commentID: "c10", position: 9))
        pilot.settle()
        pilot.send(.key(.alt("u")))
        var flashed = false
        _ = runFrames(pilot) { pilot in
            guard let body = pilot.lines.firstIndex(where: { $0.contains("comment number 11") }), body > 0 else { return }
            if pilot.screen.screen[FeedLayout.gutter, body - 1].style.background != .default { flashed = true }
        }
        XCTAssertTrue(flashed, "the header stood out while the view went there")
        XCTAssertNil(pilot.app.nextDeadline)
        let row = pilot.lines.firstIndex { $0.contains("comment number 11") }.map { $0 - 1 } ?? 0
        XCTAssertEqual(pilot.screen.screen[FeedLayout.gutter + 1, row].style.background, .default, "and went back")
    }

    func testEffectsAskForFramesOnlyWhileTheyRun() {
        var effects = TextEffects()
        let start = ScrollInstant(seconds: 10)
        XCTAssertNil(effects.nextChange(after: start))
        effects.start(.mentionGlow, on: "c", at: start)
        XCTAssertEqual(effects.nextChange(after: start)?.seconds ?? 0, 10 + 2.0 / 6, accuracy: 1e-9, "the glow's next colour step")
        effects.start(.spoiler(1, revealing: true), on: "c", at: start)
        XCTAssertEqual(effects.nextChange(after: start)?.seconds ?? 0, 10 + 1.0 / 60, accuracy: 1e-9, "a dissolve's next frame")
        effects.removeFinished(at: start + 2)
        XCTAssertTrue(effects.isEmpty)
        XCTAssertNil(effects.nextChange(after: start + 2))
    }
}
