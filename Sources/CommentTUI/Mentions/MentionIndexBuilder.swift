import Foundation
import ThreadModel

/// Builds the @mention list's index (`MentionRanker`) off the loop's thread: folding and sorting
/// 100,000 users takes a sixth of a second, and no key should wait for that.
///
/// The list asks for a build when its thread opens and whenever the users change; each request
/// carries the list's generation. The index lands in `take()` and `ready` wakes the loop's poll,
/// as `ThreadOpener` does. A request overtaken by a newer one before it started is skipped; one
/// overtaken while it ran lands all the same, and the list, seeing an old generation, drops it.
/// Without a wake pipe (none could be made) each build runs at once, on the caller's thread.
final class MentionIndexBuilder: @unchecked Sendable {
    /// An index built for a generation of the list's users.
    struct Built {
        var generation: Int
        var ranker: MentionRanker
    }

    /// Readable when an index landed; nil when builds run on the caller's thread.
    var ready: FileDescriptor? { wake?.readEnd }
    private let wake: WakePipe?
    /// The one thread builds run on, in order; tests suspend it to hold a build back.
    let queue = DispatchQueue(label: "comment-tui.mention-index", qos: .userInitiated)
    private let lock = NSLock()
    /// The newest generation asked for (under `lock`).
    private var newest = -1
    /// The last index built, until taken (under `lock`).
    private var built: Built?

    init() {
        wake = try? WakePipe()
    }

    /// Builds an index over `thread`'s users (in id order), never offering `excluding`.
    func build(generation: Int, thread: CommentThread, excluding: Set<String>) {
        lock.withLock { newest = generation }
        guard let wake else {
            return land(Built(generation: generation, ranker: MentionRanker(users: thread.users, excluding: excluding)))
        }
        // The thread is let go as soon as its users are read: the loop's copy, changed meanwhile,
        // then need not copy a dictionary of every user.
        let handoff = Handoff(thread)
        queue.async { [self] in
            guard lock.withLock({ newest == generation }), let users = handoff.take()?.users else { return }
            land(Built(generation: generation, ranker: MentionRanker(users: users, excluding: excluding)))
            wake.wake()
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
private final class Handoff<Value>: @unchecked Sendable {
    private var value: Value?

    init(_ value: Value) { self.value = value }

    func take() -> Value? {
        defer { value = nil }
        return value
    }
}
