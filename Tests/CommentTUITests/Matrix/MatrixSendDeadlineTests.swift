import Foundation
import XCTest
@testable import CommentTUI

/// A send ends at its deadline whatever the homeserver does: a body trickling a byte at a time
/// never lets an idle timeout fire, so only the deadline from start to the last byte ends it.
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
        wait(for: [ended], timeout: 4)
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertTrue(outcome.isSet, "failed as not answered in time")
        XCTAssertGreaterThan(elapsed, 0.9, "not before the deadline")
        XCTAssertEqual(homeserver.requests.count, 1)
    }
}

/// A flag set from another thread.
private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
