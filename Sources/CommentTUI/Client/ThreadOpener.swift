import Foundation
import ThreadModel

/// Opens threads off the loop's thread: a room's first page can take a round trip or more, and
/// home stays live meanwhile. An opened thread (or why it did not open) waits in `takeOpened()`,
/// and `ready` wakes the loop's poll.
final class ThreadOpener: @unchecked Sendable {
    /// A thread opened, as the client makes a session of it.
    struct Opened {
        var key: ThreadKey
        var result: Result<OpenCommand.Target, Error>
    }

    /// Readable when an opening ended.
    var ready: FileDescriptor { wake.readEnd }
    private let wake: WakePipe
    private let opens: (ThreadKey, _ acceptsInvite: Bool) throws -> OpenCommand.Target
    private let queue = DispatchQueue(label: "comment-tui.open", attributes: .concurrent)
    private let lock = NSLock()
    private var finished: [Opened] = []
    private var underWay: Set<ThreadKey> = []
    /// False opens on the caller's thread (tests that step the client without threads).
    private let inBackground: Bool

    /// - Parameter opens: opens one thread, blocking (a file's index, a room's first sync); a room
    ///   invited to is joined when the reader accepted the invite (`acceptsInvite`).
    init(inBackground: Bool = true, opens: @escaping (ThreadKey, _ acceptsInvite: Bool) throws -> OpenCommand.Target) throws {
        wake = try WakePipe()
        self.opens = opens
        self.inBackground = inBackground
    }

    /// Whether `key` is being opened now.
    func isOpening(_ key: ThreadKey) -> Bool { lock.withLock { underWay.contains(key) } }

    /// Starts opening `key`, unless it is being opened already; `acceptsInvite` joins a room
    /// the account is invited to (an encrypted one too: the reader said yes to it).
    func open(_ key: ThreadKey, acceptsInvite: Bool = false) {
        let isNew = lock.withLock { underWay.insert(key).inserted }
        guard isNew else { return }
        guard inBackground else { return finish(key, acceptsInvite) }
        queue.async { [self] in finish(key, acceptsInvite) }
    }

    private func finish(_ key: ThreadKey, _ acceptsInvite: Bool) {
        let result = Result { try opens(key, acceptsInvite) }
        lock.withLock {
            underWay.remove(key)
            finished.append(Opened(key: key, result: result))
        }
        wake.wake()
    }

    /// The openings that ended since the last call, in the order they ended.
    func takeOpened() -> [Opened] {
        wake.drain()
        return lock.withLock {
            defer { finished.removeAll() }
            return finished
        }
    }
}
