@testable import CommentTUI
import XCTest

/// The reader's typing notices, decided from keystrokes and time moved by the test.
final class TypingScheduleTests: XCTestCase {
    private func at(_ seconds: Double) -> Duration { .milliseconds(Int(seconds * 1000)) }

    func testTheFirstKeystrokeSaysTypingAndItIsRenewedEveryTwentySeconds() {
        var schedule = TypingSchedule()
        XCTAssertEqual(schedule.keystroke(at: at(0)), .typing)
        XCTAssertNil(schedule.keystroke(at: at(1)), "a second later: still told")
        XCTAssertNil(schedule.keystroke(at: at(19.9)))
        XCTAssertEqual(schedule.keystroke(at: at(20)), .typing, "renewed before the server forgets it")
        XCTAssertEqual(schedule.expiry, at(50))
    }

    func testThirtySecondsWithoutAKeystrokeSaysStoppedOnce() {
        var schedule = TypingSchedule()
        _ = schedule.keystroke(at: at(0))
        _ = schedule.keystroke(at: at(10))
        XCTAssertNil(schedule.advance(to: at(30)), "30 s after the first keystroke, 20 after the last")
        XCTAssertNil(schedule.advance(to: at(39.999)))
        XCTAssertEqual(schedule.advance(to: at(40)), .stopped)
        XCTAssertNil(schedule.advance(to: at(100)), "said once")
        XCTAssertNil(schedule.expiry)
    }

    func testSendingStopsAtOnceAndAKeystrokeAMinuteLaterStartsAgain() {
        var schedule = TypingSchedule()
        _ = schedule.keystroke(at: at(0))
        XCTAssertEqual(schedule.stop(), .stopped)
        XCTAssertNil(schedule.stop(), "nothing to stop twice")
        XCTAssertEqual(schedule.keystroke(at: at(60)), .typing)
        XCTAssertEqual(schedule.advance(to: at(120)), .stopped)
    }
}
