import Foundation
import XCTest
import ThreadModel
@testable import CommentTUI

/// A source that learns things on another thread, as a homeserver sync loop would: it queues
/// updates under a lock and wakes the loop through a `WakePipe`. Test support, not product.
private final class QueuedSource: ThreadSource, @unchecked Sendable {
    private final class NoComments: CommentStore {
        var commentCount: Int { 0 }
        func comment(at index: Int) -> Result<Comment, ThreadFileProblem> { fatalError("no comment \(index)") }
    }

    let label = "queued"
    let thread = CommentThread(id: "t", title: "Queued", author: "u1", created: Date(timeIntervalSince1970: 0), body: "")
    let openedComments: CommentStore = NoComments()
    let hasOlderComments = false
    let openingProblems: [ThreadFileProblem] = []
    let draftFile: DraftFile? = nil
    private let wake: WakePipe
    private let lock = NSLock()
    private var queue: [ThreadUpdate] = []

    init() throws { wake = try WakePipe() }

    /// Called on the other thread: queue first, then wake, so the loop never misses it.
    func deliver(_ update: ThreadUpdate) {
        lock.withLock { queue.append(update) }
        wake.wake()
    }

    var updatesReady: FileDescriptor? { wake.readEnd }

    func takeUpdates() -> [ThreadUpdate] {
        // Drain first, then take: a wake after the take makes the pipe readable again.
        wake.drain()
        return lock.withLock {
            defer { queue = [] }
            return queue
        }
    }

    func loadOlderComments() {}
    func send(_ comment: Comment) -> SendOutcome { .pending }
    func loadReadMarker() -> ReadMarker? { nil }
    func saveReadMarker(_ marker: ReadMarker) throws {}
}

final class WakePipeTests: XCTestCase {
    func testUpdatesQueuedOnAnotherThreadReachThePollingLoopInOrder() throws {
        let source = try QueuedSource()
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
