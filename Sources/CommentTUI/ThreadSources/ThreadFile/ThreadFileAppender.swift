import Foundation
import ThreadModel

/// Appends the reader's comments to a thread file on a thread of its own, one after another, so
/// the UI never waits for the file's lock (another writer may hold it for seconds while it
/// indexes a big file) nor for the disk.
///
/// Each append ends in `finished` (written, or why not) and a wake. At quit, `withdraw()` takes
/// back every comment not written yet: an append still waiting for the lock is then never
/// written, so the client can keep the comment as the draft without waiting and without a
/// chance of posting it twice.
final class ThreadFileAppender: @unchecked Sendable {
    /// How an append ended: nil when written, else why not.
    typealias Outcome = (id: String, failure: String?)

    private let path: String
    private let wake: WakePipe
    private let queue = DispatchQueue(label: "comment-tui.thread-file-appends")
    private let condition = NSCondition()
    /// Comments handed over and not finished, in order; `true` once being written.
    private var inFlight: [(comment: Comment, writing: Bool)] = []
    /// Records written before a comment, in the same append (its author's user record).
    private var preceding: [String: [ThreadRecord]] = [:]
    /// Comments whose append failed, kept for `withdraw()` until sent again.
    private var failed: [Comment] = []
    private var withdrawn: Set<String> = []
    private var finished: [Outcome] = []

    /// Appends to `path`, waking `wake` as each append ends.
    init(path: String, wake: WakePipe) {
        self.path = path
        self.wake = wake
    }

    /// Queues the comment's append, with `records` written just before it in the same append;
    /// its outcome comes from `takeFinished()` after a wake.
    func append(_ comment: Comment, after records: [ThreadRecord] = []) {
        condition.withLock {
            failed.removeAll { $0.id == comment.id }
            inFlight.append((comment, false))
            preceding[comment.id] = records.isEmpty ? nil : records
        }
        queue.async { [self] in run(comment) }
    }

    /// The appends that ended since the last call, in order.
    func takeFinished() -> [Outcome] {
        condition.withLock {
            defer { finished = [] }
            return finished
        }
    }

    /// Takes back every comment not written (waiting for the lock, queued, or failed), in the
    /// order sent: none of them will be written after this returns. An append already writing
    /// is waited for (the lock is ours then; only the write and `fsync` remain), at most
    /// `writeWait` seconds; one still writing then is not taken back (it may yet land: the
    /// outbox keeps it for the next start to look for).
    func withdraw(writeWait: Double = 2) -> [Comment] {
        condition.withLock {
            let deadline = Date(timeIntervalSinceNow: writeWait)
            while inFlight.contains(where: \.writing), condition.wait(until: deadline) {}
            let taken = failed + inFlight.filter { !$0.writing }.map(\.comment)
            withdrawn.formUnion(taken.map(\.id))
            failed = []
            return taken
        }
    }

    /// Waits until no append is queued or running (tests); false after `timeout` seconds.
    func waitUntilIdle(timeout: Double) -> Bool {
        condition.withLock {
            let deadline = Date(timeIntervalSinceNow: timeout)
            while !inFlight.isEmpty { guard condition.wait(until: deadline) else { return false } }
            return true
        }
    }

    private func run(_ comment: Comment) {
        var failure: String?
        do {
            let records = condition.withLock { preceding[comment.id] ?? [] }
            try ThreadFileWriter(path: path).append(records + [.comment(comment)], proceedingIf: { startWriting(comment.id) })
        } catch {
            failure = "\(error)"
        }
        condition.withLock {
            inFlight.removeAll { $0.comment.id == comment.id }
            preceding[comment.id] = nil
            if !withdrawn.contains(comment.id) {
                if failure != nil { failed.append(comment) }
                finished.append((comment.id, failure))
            }
            condition.broadcast()
        }
        wake.wake()
    }

    /// The lock is held: the append goes on unless the comment was withdrawn meanwhile.
    private func startWriting(_ id: String) -> Bool {
        condition.withLock {
            guard !withdrawn.contains(id), let slot = inFlight.firstIndex(where: { $0.comment.id == id }) else { return false }
            inFlight[slot].writing = true
            return true
        }
    }
}
