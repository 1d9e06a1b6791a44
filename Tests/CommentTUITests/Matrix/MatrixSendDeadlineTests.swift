import Foundation
import XCTest
@testable import CommentTUI

/// A send ends at its deadline whatever the homeserver does: a body trickling a byte at a time
/// keeps a request's idle timeout from firing, and a cancelled request URLSession never ends
/// does not hold its caller past a short grace.
final class MatrixSendDeadlineTests: XCTestCase {
    func testASendWhoseAnswerTricklesFailsAtTheDeadline() throws {
        let homeserver = try UnansweringHomeserver(answer: nil, tricklesBody: true)
        defer { homeserver.stop() }
        let client = MatrixClient(homeserver: homeserver.url, accessToken: "not-a-real-token")
        let ended = expectation(description: "the send ended")
        let outcome = LockedFlag()
        let start = Date()
        Thread.detachNewThread {
            do { _ = try client.send(room: "!room:here", transactionID: "t1", content: .object([:]), timeout: 1) } catch {
                if (error as? MatrixError)?.timedOut == true { outcome.set() }
            }
            ended.fulfill()
        }
        // The deadline is 1 s; the body would take 8 hours. A loaded machine gets some slack.
        wait(for: [ended], timeout: 1 + MatrixClient.cancelGrace + 1)
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertTrue(outcome.isSet, "failed as not answered in time")
        XCTAssertGreaterThan(elapsed, 0.9, "not before the deadline")
        XCTAssertEqual(homeserver.requests.count, 1)
    }

    func testAWaitPastTheDeadlineEndsWhenTheCancelledRequestNeverDoes() {
        let never = DispatchSemaphore(value: 0)
        let ended = expectation(description: "the wait ended")
        let cancelled = LockedFlag()
        Thread.detachNewThread {
            let inTime = MatrixClient.waitForAnswer(never, deadline: 0.2, cancel: { cancelled.set() })
            XCTAssertFalse(inTime)
            ended.fulfill()
        }
        wait(for: [ended], timeout: 0.2 + MatrixClient.cancelGrace + 3)
        XCTAssertTrue(cancelled.isSet)
    }
}

/// A flag set from another thread.
private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
