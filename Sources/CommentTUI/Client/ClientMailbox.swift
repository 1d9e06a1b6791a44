import Foundation
import ThreadModel

/// What the client's background work (accounts' syncs, home's file rows) tells the loop's
/// thread: messages queued under a lock, `ready` readable while any wait.
final class ClientMailbox: @unchecked Sendable {
    /// A message for the client.
    enum Message {
        /// Every row of one account's rooms now (`account`), or rows of threads outside any
        /// account (nil: files), which replace those with the same keys.
        case summaries(account: String?, [ThreadSummary])
        /// How an account's sync is connected.
        case connection(account: String, ConnectionState)
        /// How many more rooms an account has than home lists yet: its first window is shown,
        /// its whole list and the counts still coming; nil once they came.
        case roomsComing(account: String, count: Int?)
        /// A line for the status bar.
        case message(String, isError: Bool)
        /// An account's interactive verifications changed (one was asked for, moved on, ended).
        case verifications(account: String)
    }

    /// Readable while messages wait.
    var ready: FileDescriptor { wake.readEnd }
    private let wake: WakePipe
    private let lock = NSLock()
    private var queued: [Message] = []

    init() throws {
        wake = try WakePipe()
    }

    /// Queues a message and wakes the loop (from any thread).
    func post(_ message: Message) {
        lock.withLock { queued.append(message) }
        wake.wake()
    }

    /// The messages queued since the last call, oldest first.
    func take() -> [Message] {
        wake.drain()
        return lock.withLock {
            defer { queued.removeAll() }
            return queued
        }
    }
}
