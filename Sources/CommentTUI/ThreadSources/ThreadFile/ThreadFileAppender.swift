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
    /// The reader's user record, written just before their next comment (the file was replaced
    /// by one that does not know them) until one is written.
    private var introduction: User?
    /// The file the source shows; a comment that gets the lock on another (the path was
    /// replaced and the source has not read the new file yet) waits for `readerChanged`.
    private var expected: FileIdentity?
    /// Comments that met another file than `expected`: still in flight, not written.
    private var deferred: Set<String> = []
    /// Counts `readerChanged` calls: an introduction is let go only by a write that carried it
    /// since the last one (a write to the file before may end after the new file asked for it).
    private var readerGeneration = 0
    /// Comments whose append failed, kept for `withdraw()` until sent again.
    private var failed: [Comment] = []
    private var withdrawn: Set<String> = []
    private var finished: [Outcome] = []

    /// Appends to `path`, waking `wake` as each append ends.
    init(path: String, wake: WakePipe) {
        self.path = path
        self.wake = wake
    }

    /// Queues the comment's append; its outcome comes from `takeFinished()` after a wake.
    func append(_ comment: Comment) {
        condition.withLock {
            failed.removeAll { $0.id == comment.id }
            inFlight.append((comment, false))
        }
        queue.async { [self] in run(comment.id) }
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

    /// Forgets a comment whose append failed (the reader discarded it or took it back).
    func discard(_ id: String) {
        condition.withLock { failed.removeAll { $0.id == id } }
    }

    /// Comments waiting for the source to read the file they met (tests).
    var deferredCount: Int { condition.withLock { deferred.count } }

    /// Appends go to the file with this identity (the one the source read).
    func expect(_ identity: FileIdentity?) {
        condition.withLock { expected = identity }
    }

    /// The source read the file `file` and the reader is `reader` there: their comments not
    /// written yet (queued, waiting for the lock, being written, or failed) go under the new id,
    /// with `introducing` the next one written carries their user record, and appends go to
    /// `file` from now on; those that met it before the source had read it go again, in the
    /// order sent. All of it at once, so no append sees the new file with the old reader.
    /// Returns the comments changed.
    func readerChanged(from oldID: String, to reader: User, introducing: Bool, expecting file: FileIdentity?) -> [Comment] {
        condition.withLock {
            expected = file
            introduction = introducing ? reader : nil
            readerGeneration += 1
            for entry in inFlight where deferred.contains(entry.comment.id) {
                let id = entry.comment.id
                queue.async { [self] in run(id) }
            }
            deferred = []
            var changed: [Comment] = []
            // One being written keeps its bytes; the new id is for a retry if the write fails.
            for slot in inFlight.indices where inFlight[slot].comment.author == oldID {
                inFlight[slot].comment.author = reader.id
                changed.append(inFlight[slot].comment)
            }
            for slot in failed.indices where failed[slot].author == oldID {
                failed[slot].author = reader.id
                changed.append(failed[slot])
            }
            return changed
        }
    }

    /// The reader's user record when their next write must carry it (the file does not know
    /// them), with the reader generation it is for: a reaction written outside the appender
    /// carries it too, and says so with `introduced(generation:)`.
    func pendingIntroduction(for author: String) -> (user: User, generation: Int)? {
        condition.withLock {
            guard let introduction, introduction.id == author else { return nil }
            return (introduction, readerGeneration)
        }
    }

    /// A write outside the appender carried the introduction asked for in `generation`.
    func introduced(generation: Int) {
        condition.withLock { if generation == readerGeneration { introduction = nil } }
    }

    /// The source could not read the file at the path: comments that met it fail (Enter tries
    /// them again), rather than wait for a `readerChanged` that will not come.
    func failDeferred(_ reason: String) {
        condition.withLock {
            for entry in inFlight where deferred.contains(entry.comment.id) {
                failed.append(entry.comment)
                finished.append((entry.comment.id, reason))
            }
            inFlight.removeAll { deferred.contains($0.comment.id) }
            deferred = []
            condition.broadcast()
        }
        wake.wake()
    }

    /// Waits until no append is queued or running (tests); false after `timeout` seconds.
    func waitUntilIdle(timeout: Double) -> Bool {
        condition.withLock {
            let deadline = Date(timeIntervalSinceNow: timeout)
            while !inFlight.isEmpty { guard condition.wait(until: deadline) else { return false } }
            return true
        }
    }

    private func run(_ id: String) {
        var failure: String?
        var start = WriteStart()
        do {
            try ThreadFileWriter(path: path).append(madeUnderLock: { startWriting(id, in: $0, start: &start) })
        } catch {
            failure = "\(error)"
        }
        // It stays in flight, unwritten, until the source has read the file it met (and
        // `readerChanged` may already have sent it again: this run leaves it alone).
        guard !start.waits else { return }
        condition.withLock {
            // Written with the reader's record, for the file the source has now: it knows them.
            if failure == nil, start.introducedIn == readerGeneration { introduction = nil }
            // As it is now: its author may have changed while it waited.
            let current = inFlight.first { $0.comment.id == id }?.comment
            inFlight.removeAll { $0.comment.id == id }
            if !withdrawn.contains(id) {
                if failure != nil, let current { failed.append(current) }
                finished.append((id, failure))
            }
            condition.broadcast()
        }
        wake.wake()
    }

    /// The lock is held: the comment as it is now (its author may have changed while it waited),
    /// after the reader's user record if the file needs it; nil when it was withdrawn meanwhile,
    /// or when `file` is not the one the source read (then `waits`: deferred).
    private func startWriting(_ id: String, in file: FileIdentity, start: inout WriteStart) -> [ThreadRecord]? {
        condition.withLock {
            guard !withdrawn.contains(id), let slot = inFlight.firstIndex(where: { $0.comment.id == id }) else { return nil }
            if let expected, file != expected {
                deferred.insert(id)
                start.waits = true
                return nil
            }
            inFlight[slot].writing = true
            let comment = inFlight[slot].comment
            guard let introduction, introduction.id == comment.author else { return [.comment(comment)] }
            start.introducedIn = readerGeneration
            return [.user(introduction), .comment(comment)]
        }
    }

    /// What `startWriting` decided, for the run that asked.
    private struct WriteStart {
        /// Deferred: the file is not the one the source read.
        var waits = false
        /// The reader generation whose introduction the write carried, if it carried one.
        var introducedIn: Int?
    }
}
