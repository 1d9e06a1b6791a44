import Foundation
import ScrollEngine
@testable import ThreadModel
import XCTest
@testable import CommentTUI
import CommentTUITestSupport

/// Every input that starts motion, pressed after the reader has been still for a while (the loop
/// asleep in `poll()`, no frame drawn): the motion is timed from the key, not from the last frame,
/// so it draws its frames instead of jumping to its end. The pauses are a second and a minute;
/// a test that only ever advances 16 ms between inputs cannot see this.
final class AnimationAfterPauseTests: XCTestCase {
    static let pauses: [Double] = [1, 60]

    /// A post long enough that its header collapses over several rows, and sixty comments.
    static var thread: ThreadFixture {
        ThreadFixture.numbered(60, body: String(repeating: "The post body goes on for a while. ", count: 6))
    }

    /// The pilot at rest at the newest comments, after a first frame and any opening motion.
    private func atRest(_ fixture: ThreadFixture = thread) -> Pilot {
        let pilot = fixture.pilot(columns: 60, rows: 20)
        pilot.settle()
        return pilot
    }

    /// What a motion drew after a pause: the frames whose screen changed, and the phases the
    /// feed passed through, starting with the phase right after the input.
    private struct Motion {
        var changedFrames = 0
        var phases: [ScrollPhase] = []
        /// Seconds from the input until the feed was at rest again.
        var duration = 0.0
        /// Whether the status bar named the phase `animating` in a frame.
        var statusSaidAnimating = false
    }

    /// Leaves the app untouched for `pause` seconds, sends `input`, then draws frames at 60 a
    /// second until nothing moves.
    private func motion(after pause: Double, in pilot: Pilot, _ input: (Pilot) -> Void) -> Motion {
        pilot.idle(for: pause)
        let start = pilot.time
        input(pilot)
        var motion = Motion(phases: [pilot.scrollPhase])
        var last = pilot.lines
        pilot.runFrames { pilot in
            if pilot.lines != last { motion.changedFrames += 1 }
            if pilot.lines.last?.contains("animating") == true { motion.statusSaidAnimating = true }
            last = pilot.lines
            let phase = pilot.scrollPhase
            if motion.phases.last != phase {
                motion.phases.append(phase)
                if phase == .idle { motion.duration = pilot.time.seconds - start.seconds }
            }
        }
        return motion
    }

    private func assertAnimates(_ name: String, from setUp: () -> Pilot, minimumFrames: Int = 6,
                                phase: ScrollPhase = .animating, _ input: (Pilot) -> Void,
                                file: StaticString = #filePath, line: UInt = #line) {
        for pause in Self.pauses {
            let pilot = setUp()
            let seen = motion(after: pause, in: pilot, input)
            XCTAssertGreaterThanOrEqual(seen.changedFrames, minimumFrames,
                                        "\(name) after \(pause) s drew \(seen.changedFrames) changed frames", file: file, line: line)
            XCTAssertTrue(seen.phases.contains(phase), "\(name) after \(pause) s: \(seen.phases)", file: file, line: line)
            if phase == .animating {
                XCTAssertTrue(seen.statusSaidAnimating, "\(name) after \(pause) s: the status bar says so", file: file, line: line)
            }
            XCTAssertEqual(seen.phases.last, .idle, "\(name) after \(pause) s comes to rest", file: file, line: line)
        }
    }

    func testPageKeysAnimateAfterAPause() {
        assertAnimates("PageUp", from: { atRest() }) { $0.press(.pageUp) }
        assertAnimates("PageDown", from: {
            let pilot = atRest()
            pilot.press(.ctrlHome)
            pilot.settle()
            return pilot
        }) { $0.press(.pageDown) }
    }

    func testJumpsToTheEndsAnimateAfterAPause() {
        assertAnimates("Ctrl-Home", from: { atRest() }) { $0.press(.ctrlHome) }
        assertAnimates("Home (empty composer)", from: { atRest() }) { $0.press(KeyPress(.home)) }
        let atTop = { () -> Pilot in
            let pilot = self.atRest()
            pilot.press(.ctrlHome)
            pilot.settle()
            return pilot
        }
        assertAnimates("Ctrl-End", from: atTop) { $0.press(.ctrlEnd) }
        assertAnimates("End (empty composer)", from: atTop) { $0.press(KeyPress(.end)) }
    }

    func testAltUAnimatesToTheFirstUnreadAfterAPause() {
        assertAnimates("Alt-U", from: {
            // Read by a third user: the comments after the marker are none of theirs.
            let pilot = atRest(Self.thread.read(by: ThreadFixture.cy))
            pilot.app.restore(ReadMarker(commentID: "c20", position: 19))
            pilot.settle()
            return pilot
        }) { $0.press(KeyPress(.character("u"), .alt)) }
    }

    /// A lone notch is a precise step of rows, drawn at once; its burst then ends after the
    /// wheel's quiet period, counted from the notch (it ended at once, timed from the last frame).
    func testASingleWheelNotchEndsItsBurstAfterTheQuietPeriodAfterAPause() {
        let quiet = ScrollConfiguration().wheelQuietPeriod
        for pause in Self.pauses {
            let pilot = atRest()
            let seen = motion(after: pause, in: pilot) { $0.wheel(.up, column: 10, row: 8) }
            XCTAssertEqual(seen.phases, [.interacting, .idle], "after \(pause) s")
            XCTAssertGreaterThanOrEqual(seen.duration, quiet - 1e-9, "after \(pause) s the burst ended \(seen.duration) s after the notch")
        }
    }

    /// One notch down from the top leaves the header part-collapsed; once the burst ends (timed
    /// from the notch) it snaps in a motion of its own, ending shut or open.
    func testTheHeaderSnapsInAMotionAfterAPause() {
        let snapAt = ScrollConfiguration().wheelQuietPeriod
        for pause in Self.pauses {
            let pilot = atRest()
            pilot.press(.ctrlHome)
            pilot.settle()
            XCTAssertGreaterThan(pilot.postRows, 3, "the header collapses over more than a notch")
            let seen = motion(after: pause, in: pilot) { $0.wheel(.down, column: 10, row: 12) }
            XCTAssertEqual(seen.phases, [.interacting, .decelerating, .idle], "after \(pause) s")
            // A snap takes a frame a row: it ends after the quiet period, not at the notch.
            XCTAssertGreaterThan(seen.duration, snapAt, "after \(pause) s the snap ended \(seen.duration) s after the notch")
            XCTAssertGreaterThanOrEqual(seen.changedFrames, 2, "the snap's rows drawn one by one after \(pause) s")
            XCTAssertTrue([0, 1].contains(pilot.headerProgress), "\(pilot.headerProgress)")
        }
    }

    func testAltSDissolvesAfterAPause() {
        var fixture = ThreadFixture(title: "Effects", users: [ThreadFixture.ann, ThreadFixture.bo])
        fixture.add(Comment(id: "c1", author: "u2", created: ThreadFixture.start, body: "see ||the butler did it in the library|| ok"))
        for pause in Self.pauses {
            let pilot = fixture.pilot(columns: 60, rows: 16)
            pilot.settle()
            pilot.press(.altUp)
            pilot.settle()
            XCTAssertNotNil(pilot.selectedCommentIndex)
            let seen = motion(after: pause, in: pilot) { $0.press(KeyPress(.character("s"), .alt)) }
            XCTAssertGreaterThanOrEqual(seen.changedFrames, 10, "the dissolve after \(pause) s drew \(seen.changedFrames) changed frames")
        }
    }

    /// F3 logs the end of a key's motion when it ended, not at the next input seconds later.
    func testTheScrollLogStampsTheEndOfAKeysMotionWhenItEnded() throws {
        let pilot = atRest()
        pilot.idle(for: 60)
        let pressedAt = pilot.time
        pilot.press(.pageUp)
        pilot.runFrames()
        pilot.idle(for: 30)
        pilot.press(.ctrlDown)
        let log = pilot.scrollEventLines
        let end = try XCTUnwrap(log.first { $0.contains("animating → idle") }, log.joined(separator: "\n"))
        let stamp = try XCTUnwrap(Double(end.split(separator: " ", omittingEmptySubsequences: true)[0]))
        XCTAssertLessThan(stamp - pressedAt.seconds, 1, "ended within a second of the key: \(end)")
        XCTAssertGreaterThan(stamp - pressedAt.seconds, 0.05, "not at the key itself: \(end)")
    }
}
