import Foundation
import XCTest
@testable import CommentTUI

/// Waiting for an account's sync's first answer ends at once where there is nothing to wait
/// for: a sync not running, or one stopped while it is waited for.
final class MatrixAccountSyncPositionTests: XCTestCase {
    private let client = MatrixClient(homeserver: URL(string: "http://127.0.0.1:9")!, accessToken: "t")

    func testASyncNotRunningHasNoPositionToWaitFor() {
        let sync = MatrixAccountSync(client: client)
        let start = Date()
        XCTAssertNil(sync.awaitPosition(timeout: 10))
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }

    func testStoppingASyncEndsTheWaitForItsPosition() {
        // Nothing listens on port 9: the sync fails and backs off, never answering.
        let sync = MatrixAccountSync(client: client)
        sync.start()
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { sync.stop() }
        let start = Date()
        XCTAssertNil(sync.awaitPosition(timeout: 20))
        let waited = Date().timeIntervalSince(start)
        XCTAssertGreaterThan(waited, 0.5, "it waited while the sync ran")
        XCTAssertLessThan(waited, 10, "and not past its stop")
    }
}
