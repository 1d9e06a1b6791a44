import Foundation
import XCTest
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

final class WakePipeTests: XCTestCase {
    func testUpdatesQueuedOnAnotherThreadReachThePollingLoopInOrder() throws {
        let source = try QueuedThreadSource(thread: ThreadFixture.numbered(1).thread)
        let ready = try XCTUnwrap(source.updatesReady)
        XCTAssertTrue(try Poll.readable([ready], timeout: 0).isEmpty, "nothing yet")

        let count = 200
        let sender = Thread {
            for n in 0..<count {
                source.deliver(n % 2 == 0 ? .sendConfirmed(commentID: "c\(n)") : .problem("p\(n)"))
            }
        }
        sender.start()

        var received: [String] = []
        let deadline = Date().addingTimeInterval(10)
        while received.count < count, Date() < deadline {
            guard !(try Poll.readable([ready], timeout: 1)).isEmpty else { continue }
            received += source.takeUpdates().map(describe)
        }
        let expected = (0..<count).map { $0 % 2 == 0 ? "confirmed c\($0)" : "problem p\($0)" }
        XCTAssertEqual(received, expected)
        // The sender's last wake may land after the last take: once it is done, one more take
        // finds nothing and leaves the pipe drained.
        for _ in 0..<1000 where !sender.isFinished { _ = try Poll.readable([], timeout: 0.01) }
        XCTAssertTrue(source.takeUpdates().isEmpty)
        XCTAssertTrue(try Poll.readable([ready], timeout: 0).isEmpty, "drained once all was taken")
    }

    func testWakesBeyondThePipesCapacityNeverBlock() throws {
        let pipe = try WakePipe()
        // A pipe holds 64 KiB on Linux: the writes past it fail with EAGAIN and are dropped.
        for _ in 0..<100_000 { pipe.wake() }
        XCTAssertFalse(try Poll.readable([pipe.readEnd], timeout: 0).isEmpty)
        pipe.drain()
        XCTAssertTrue(try Poll.readable([pipe.readEnd], timeout: 0).isEmpty)
        XCTAssertTrue(pipe.readEnd.isNonBlocking)
    }
}
