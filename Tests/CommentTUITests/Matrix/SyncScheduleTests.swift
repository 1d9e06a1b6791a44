import XCTest
@testable import CommentTUI

/// The account's sync as a state machine: what it asks next and what the status says, with
/// time advanced by the test in milliseconds and no server.
final class SyncScheduleTests: XCTestCase {
    /// The test's clock.
    private var now = Duration.zero

    private func advance(milliseconds: Int) { now += .milliseconds(milliseconds) }

    /// The request due now; fails when the schedule waits instead.
    private func request(_ schedule: inout SyncSchedule, file: StaticString = #filePath, line: UInt = #line) -> SyncSchedule.Request? {
        guard case .request(let request) = schedule.next(at: now) else {
            XCTFail("no request due at \(now): \(schedule.next(at: now))", file: file, line: line)
            return nil
        }
        return request
    }

    /// A schedule that answered once from `s0` (live, long polling from `s1`).
    private func liveSchedule() -> SyncSchedule {
        var schedule = SyncSchedule(since: "s0")
        _ = schedule.next(at: now)
        schedule.answered(nextBatch: "s1", at: now)
        return schedule
    }

    func testTheFirstRequestAsksForNoWaitAndLongPollsOnceAnswered() {
        var schedule = SyncSchedule(since: "s0")
        XCTAssertEqual(schedule.connection, .connecting)
        XCTAssertEqual(request(&schedule), .init(since: "s0", wait: 0, overdueAt: .seconds(15)))
        advance(milliseconds: 40)
        schedule.answered(nextBatch: "s1", at: now)
        XCTAssertEqual(schedule.connection, .live)
        XCTAssertEqual(request(&schedule), .init(since: "s1", wait: 30, overdueAt: now + .seconds(45)))
        // Asked again while it runs: the same request, not a second one.
        advance(milliseconds: 1_000)
        XCTAssertEqual(request(&schedule)?.since, "s1")
        XCTAssertEqual(schedule.nextDeadline, .milliseconds(40) + .seconds(45), "its stall check")
    }

    func testBackoffDoublesToThirtySecondsAndAnAnswerStartsItAgain() {
        var schedule = liveSchedule()
        var offered: [ConnectionState] = []
        var waited: [Int] = []
        for _ in 0..<8 {
            _ = request(&schedule)
            advance(milliseconds: 5)
            XCTAssertFalse(schedule.failed(.transient, at: now), "a transient failure is only the status's")
            offered.append(schedule.connection)
            guard case .wait(let until) = schedule.next(at: now) else { return XCTFail("no backoff") }
            waited.append(Int((until - now) / .milliseconds(1)))
            // A millisecond early it still waits; then the retry starts `connecting`, with no long poll.
            now = until - .milliseconds(1)
            XCTAssertEqual(schedule.next(at: now), .wait(until: until))
            now = until
            XCTAssertEqual(request(&schedule)?.wait, 0)
            XCTAssertEqual(schedule.connection, .connecting)
            XCTAssertEqual(schedule.since, "s1", "a failure keeps the position")
        }
        XCTAssertEqual(waited, [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000])
        XCTAssertEqual(offered, [1, 2, 4, 8, 16, 30, 30, 30].map { .offline(retryIn: $0) })
        schedule.answered(nextBatch: "s2", at: now)
        _ = request(&schedule)
        _ = schedule.failed(.transient, at: now)
        XCTAssertEqual(schedule.next(at: now), .wait(until: now + .seconds(1)), "an answer starts the backoff at 1 s again")
    }

    func testARetryAfterIsHonouredAndClampedAndSaysRateLimited() {
        var schedule = liveSchedule()
        schedule.longestRateLimitWait = 2
        _ = request(&schedule)
        // 10^13 ms asked for: two seconds, the longest allowed.
        schedule.rateLimited(retryAfter: 1e10, at: now)
        XCTAssertEqual(schedule.connection, .rateLimited(retryIn: 2))
        XCTAssertEqual(schedule.next(at: now), .wait(until: now + .seconds(2)))
        // A send going through does not cut a rate limit's wait short.
        advance(milliseconds: 500)
        XCTAssertFalse(schedule.sendProven(at: now))
        XCTAssertEqual(schedule.next(at: now), .wait(until: .milliseconds(2_000)))
        advance(milliseconds: 1_500)
        XCTAssertEqual(request(&schedule), .init(since: "s1", wait: 0, overdueAt: now + .seconds(15)))
        XCTAssertEqual(schedule.connection, .connecting)

        // 1.2 s asked for: honoured, shown rounded up; none or less than none: half a second.
        var honoured = liveSchedule()
        _ = request(&honoured)
        honoured.rateLimited(retryAfter: 1.2, at: now)
        XCTAssertEqual(honoured.connection, .rateLimited(retryIn: 2))
        XCTAssertEqual(honoured.next(at: now), .wait(until: now + .milliseconds(1_200)))
        for asked in [0, -5, .nan] {
            var busy = liveSchedule()
            _ = request(&busy)
            busy.rateLimited(retryAfter: asked, at: now)
            XCTAssertEqual(busy.next(at: now), .wait(until: now + .milliseconds(500)), "\(asked)")
        }
    }

    func testASendProvenWhileBackingOffRetriesNowAndSaysLive() {
        var schedule = liveSchedule()
        _ = request(&schedule)
        for _ in 0..<3 {
            _ = schedule.failed(.transient, at: now)
            if case .wait(let until) = schedule.next(at: now) { now = until }
            _ = request(&schedule)
        }
        _ = schedule.failed(.transient, at: now)
        XCTAssertEqual(schedule.connection, .offline(retryIn: 8))
        advance(milliseconds: 300)
        XCTAssertTrue(schedule.sendProven(at: now))
        XCTAssertEqual(schedule.connection, .live)
        // The retry goes now, and stays live (it was proven), not `connecting`.
        XCTAssertEqual(request(&schedule)?.wait, 0)
        XCTAssertEqual(schedule.connection, .live)
        // Proven already: if that retry fails, the next waits its backoff in full, which grew.
        XCTAssertFalse(schedule.sendProven(at: now))
        _ = schedule.failed(.transient, at: now)
        XCTAssertEqual(schedule.connection, .offline(retryIn: 16), "the backoff still grows")
        XCTAssertEqual(schedule.next(at: now), .wait(until: now + .seconds(16)))
        // Proven during a retry `connecting`: live, and a failure then retries at once.
        advance(milliseconds: 16_000)
        _ = request(&schedule)
        XCTAssertEqual(schedule.connection, .connecting)
        XCTAssertTrue(schedule.sendProven(at: now))
        XCTAssertEqual(schedule.connection, .live)
        _ = schedule.failed(.transient, at: now)
        XCTAssertNotNil(request(&schedule))
        // An answer ends it: the next failure backs off in full.
        schedule.answered(nextBatch: "s2", at: now)
        _ = request(&schedule)
        _ = schedule.failed(.transient, at: now)
        XCTAssertEqual(schedule.next(at: now), .wait(until: now + .seconds(1)))
    }

    func testARequestIsStalledAfterItsWaitAndTheGraceAndASendDoesNotCallItLive() {
        var schedule = liveSchedule()
        let started = now
        XCTAssertEqual(request(&schedule)?.wait, 30)
        XCTAssertEqual(schedule.nextDeadline, started + .seconds(45))
        now = started + .seconds(45) - .milliseconds(1)
        XCTAssertFalse(schedule.checkStall(at: now))
        XCTAssertEqual(schedule.connection, .live)
        advance(milliseconds: 1)
        XCTAssertTrue(schedule.checkStall(at: now))
        XCTAssertEqual(schedule.connection, .stalled)
        XCTAssertNil(schedule.nextDeadline, "checked once")
        XCTAssertFalse(schedule.checkStall(at: now + .seconds(1)))
        XCTAssertFalse(schedule.sendProven(at: now))
        XCTAssertEqual(schedule.connection, .stalled, "never live while the request is overdue")
        // It ends at its deadline: offline, retried; an answer makes it live again.
        _ = schedule.failed(.transient, at: now)
        XCTAssertEqual(schedule.connection, .offline(retryIn: 1))
        advance(milliseconds: 1_000)
        XCTAssertEqual(request(&schedule)?.wait, 0)
        schedule.answered(nextBatch: "s2", at: now)
        XCTAssertEqual(schedule.connection, .live)

        // A retry `connecting` that is overdue says stalled too, and a send does not call it live.
        var retrying = liveSchedule()
        _ = request(&retrying)
        _ = retrying.failed(.transient, at: now)
        advance(milliseconds: 1_000)
        let retry = request(&retrying)
        XCTAssertEqual(retrying.connection, .connecting)
        now = retry?.overdueAt ?? now
        XCTAssertTrue(retrying.checkStall(at: now))
        XCTAssertFalse(retrying.sendProven(at: now))
        XCTAssertEqual(retrying.connection, .stalled)
    }

    func testARefusalIsToldOnceUntilAnAnswer() {
        var schedule = liveSchedule()
        let redirected = MatrixError.Kind.server(status: 307, errcode: nil)
        var told: [Bool] = []
        for _ in 0..<3 {
            _ = request(&schedule)
            told.append(schedule.failed(.refused(redirected), at: now))
            if case .wait(let until) = schedule.next(at: now) { now = until }
        }
        _ = request(&schedule)
        told.append(schedule.failed(.refused(.server(status: 403, errcode: "M_FORBIDDEN")), at: now))
        XCTAssertEqual(told, [true, false, false, true], "once per kind, not at each retry")
        XCTAssertEqual(schedule.connection, .offline(retryIn: 8))
        if case .wait(let until) = schedule.next(at: now) { now = until }
        _ = request(&schedule)
        schedule.answered(nextBatch: "s2", at: now)
        _ = request(&schedule)
        XCTAssertTrue(schedule.failed(.refused(redirected), at: now), "told again after an answer")
    }

    /// The loop may sleep a minute between events (a long poll, a machine suspended): each is
    /// judged at its own time, never by what was due before.
    func testAMinutesPauseBetweenEvents() {
        var schedule = liveSchedule()
        _ = request(&schedule)
        _ = schedule.failed(.transient, at: now)
        // A minute later the retry due 59 s ago goes at once, and waits for nothing.
        advance(milliseconds: 60_000)
        let retry = request(&schedule)
        XCTAssertEqual(retry, .init(since: "s1", wait: 0, overdueAt: now + .seconds(15)))
        XCTAssertEqual(schedule.connection, .connecting)
        schedule.answered(nextBatch: "s2", at: now)
        // A long poll started, then nothing for a minute: overdue (30 s + 15 s), stalled.
        let poll = request(&schedule)
        XCTAssertEqual(poll?.wait, 30)
        advance(milliseconds: 60_000)
        XCTAssertTrue(schedule.checkStall(at: now))
        XCTAssertEqual(schedule.connection, .stalled)
        // Answered after all, a minute later still: live, the next long poll's stall a full wait away.
        advance(milliseconds: 60_000)
        schedule.answered(nextBatch: "s3", at: now)
        XCTAssertEqual(schedule.connection, .live)
        XCTAssertEqual(request(&schedule)?.overdueAt, now + .seconds(45))
        XCTAssertFalse(schedule.checkStall(at: now + .seconds(44)))
    }

    func testAPositionIsAdoptedOnlyBeforeTheFirstRequest() {
        var schedule = SyncSchedule()
        XCTAssertTrue(schedule.adopt(since: "room-token"))
        XCTAssertEqual(request(&schedule)?.since, "room-token")
        XCTAssertFalse(schedule.adopt(since: "other"))
        XCTAssertEqual(schedule.since, "room-token")
    }
}
