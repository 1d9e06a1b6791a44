import XCTest
@testable import CommentTUI

/// When a failed send is tried again: a server away is waited for without end, a server that
/// takes the request and answers nothing usable a few times, a refusal for good never.
final class MatrixSendRetryTests: XCTestCase {
    private func serverError(_ status: Int, _ code: String? = nil) -> MatrixError {
        MatrixClient.serverError(status: status, json: code.map { ["errcode": .string($0), "error": "no"] })
    }

    func testAServerAwayIsWaitedForWithBackoffAndNoEnd() {
        var retry = MatrixSendRetry()
        var waits: [Double] = []
        for _ in 0..<20 {
            guard case .retry(let seconds) = retry.next(after: MatrixError(.unreachable, "homeserver is unreachable")) else {
                return XCTFail("a server away is never given up on")
            }
            waits.append(seconds)
        }
        XCTAssertEqual(Array(waits.prefix(6)), [1, 2, 4, 8, 16, 30])
        XCTAssertEqual(waits.last, MatrixSendRetry.longestWait)
        XCTAssertEqual(retry.next(after: serverError(502)), .retry(after: 30), "5xx is the server away too")
    }

    func testARateLimitWaitsAsAskedAndARefusalIsFinalAtOnce() {
        var retry = MatrixSendRetry()
        var limited = serverError(429, "M_LIMIT_EXCEEDED")
        limited.retryAfter = 7
        XCTAssertEqual(retry.next(after: limited), .retry(after: 7))
        XCTAssertEqual(retry.next(after: serverError(403, "M_FORBIDDEN")), .notSent(SendFailure(.refused, "forbidden: no")))
        var fresh = MatrixSendRetry()
        XCTAssertEqual(fresh.next(after: serverError(413, "M_TOO_LARGE")), .notSent(SendFailure(.tooLarge, "the homeserver answered 413 M_TOO_LARGE: no")))
    }

    func testNoUsableAnswerIsTriedAFewTimesThenNotSent() {
        var timedOut = MatrixError(.unreachable, "homeserver did not answer in time")
        timedOut.timedOut = true
        var retry = MatrixSendRetry()
        for _ in 1..<MatrixSendRetry.unansweredLimit {
            guard case .retry = retry.next(after: timedOut) else { return XCTFail("tried again below the bound") }
        }
        XCTAssertEqual(retry.next(after: timedOut), .notSent(SendFailure(.gaveUp, "homeserver did not answer in time (3 tries; it may have reached the room)")))
        var empty = MatrixSendRetry()
        _ = empty.next(after: MatrixError(.malformed, "sending returned no event id"))
        _ = empty.next(after: MatrixError(.unreachable, "unreachable"))   // not counted: the server was away
        _ = empty.next(after: MatrixError(.malformed, "sending returned no event id"))
        XCTAssertEqual(empty.next(after: MatrixError(.malformed, "sending returned no event id")),
                       .notSent(SendFailure(.gaveUp, "sending returned no event id (3 tries; it may have reached the room)")))
    }

    func testATimeoutWhileTheServerIsNotHeardFromIsWaitedOutWithoutEnd() {
        var timedOut = MatrixError(.unreachable, "homeserver did not answer in time")
        timedOut.timedOut = true
        var retry = MatrixSendRetry()
        for attempt in 1...20 {
            guard case .retry = retry.next(after: timedOut, inTouch: false) else { return XCTFail("given up after \(attempt) tries") }
        }
        // An answer without an event id is the server's own, heard or not.
        var empty = MatrixSendRetry()
        for _ in 1..<MatrixSendRetry.unansweredLimit { _ = empty.next(after: MatrixError(.malformed, "sending returned no event id"), inTouch: false) }
        XCTAssertEqual(empty.next(after: MatrixError(.malformed, "sending returned no event id"), inTouch: false),
                       .notSent(SendFailure(.gaveUp, "sending returned no event id (3 tries; it may have reached the room)")))
    }

    func testAnEndedSessionStopsSendingWithoutRefusing() {
        var retry = MatrixSendRetry()
        XCTAssertEqual(retry.next(after: serverError(401, "M_UNKNOWN_TOKEN")),
                       .signedOut("the session has ended on the server; log in again"))
    }
}
