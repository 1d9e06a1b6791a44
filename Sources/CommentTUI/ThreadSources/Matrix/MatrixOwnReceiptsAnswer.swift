import Foundation
import ThreadModel

/// The answer of a receipts request made on another thread, waited for once.
final class MatrixOwnReceiptsAnswer: @unchecked Sendable {
    private let lock = NSLock()
    private let done = DispatchSemaphore(value: 0)
    private var events: [JSONValue]?

    /// Keeps the answer (nil: none) and wakes the waiter.
    func set(_ answer: [JSONValue]?) {
        lock.withLock { events = answer }
        done.signal()
    }

    /// The answer, once it came (the request has its own deadline).
    func wait() -> [JSONValue]? {
        done.wait()
        return lock.withLock { events }
    }
}
