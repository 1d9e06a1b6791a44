import Foundation
import ThreadModel

/// Builds the @mention list's index (`MentionRanker`) off the loop's thread: folding and sorting
/// 100,000 users takes a sixth of a second, and no key should wait for that.
///
/// The list asks for a build when its thread opens and whenever the users change; each request
/// carries the list's generation. The index lands in `take()` and `ready` wakes the loop's poll,
/// as `ThreadOpener` does. Requests wait in one slot, the newest replacing the one before, so a
/// burst of changes builds at most twice (the build running, then the newest) and holds at most
/// one copy of the thread besides the loop's. A build for users since changed lands all the
/// same: the list installs it if it is newer than its index, and waits for the current one.
/// Without a wake pipe (none could be made) each build runs at once, on the caller's thread.
final class MentionIndexBuilder: @unchecked Sendable {
    /// An index built for a generation of the list's users.
    struct Built {
        var generation: Int
        var ranker: MentionRanker
    }

    /// A build asked for and not started.
    private struct Request {
        var generation: Int
        var thread: Handoff<CommentThread>
        var excluding: Set<String>
    }

    /// Readable when an index landed; nil when builds run on the caller's thread.
    var ready: FileDescriptor? { wake?.readEnd }
    private let wake: WakePipe?
    /// The one thread builds run on, in order; tests suspend it to hold a build back.
    let queue = DispatchQueue(label: "comment-tui.mention-index", qos: .userInitiated)
    private let lock = NSLock()
    /// The newest build asked for and not started (under `lock`).
    private var pending: Request?
    /// Whether a block is queued on `queue` to take `pending` (under `lock`).
    private var scheduled = false
    /// The last index built, until taken (under `lock`).
    private var built: Built?

    init() {
        wake = try? WakePipe()
    }

    /// Builds an index over `thread`'s users (in id order), never offering `excluding`.
    func build(generation: Int, thread: CommentThread, excluding: Set<String>) {
        guard let wake else {
            return land(Built(generation: generation, ranker: MentionRanker(users: thread.users, excluding: excluding)))
        }
        // The thread is let go as soon as its users are read: the loop's copy, changed meanwhile,
        // then need not copy a dictionary of every user.
        let schedules = lock.withLock {
            pending = Request(generation: generation, thread: Handoff(thread), excluding: excluding)
            defer { scheduled = true }
            return !scheduled
        }
        guard schedules else { return }
        // One block per build: a request that comes while one builds waits for a block of its own
        // (which a suspended queue holds back, as tests need).
        queue.async { [self] in
            guard let request = takeRequest(), let users = request.thread.take()?.users else { return }
            land(Built(generation: request.generation, ranker: MentionRanker(users: users, excluding: request.excluding)))
            wake.wake()
        }
    }

    /// The request to build now; the next one asked for schedules a block of its own.
    private func takeRequest() -> Request? {
        lock.withLock {
            defer { pending = nil; scheduled = false }
            return pending
        }
    }

    private func land(_ index: Built) {
        lock.withLock { built = index }
    }

    /// The index built last, if one landed since the last call.
    func take() -> Built? {
        wake?.drain()
        return lock.withLock {
            defer { built = nil }
            return built
        }
    }

    /// Waits until every build asked for has landed (a key that cannot do without the index).
    func waitForBuilds() {
        guard wake != nil else { return }
        queue.sync {}
    }
}

/// A value handed to another thread and let go there once taken.
private final class Handoff<Value: Sendable>: @unchecked Sendable {
    private var value: Value?

    init(_ value: Value) { self.value = value }

    func take() -> Value? {
        defer { value = nil }
        return value
    }
}
