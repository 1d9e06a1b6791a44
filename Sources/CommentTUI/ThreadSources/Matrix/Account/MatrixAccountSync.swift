import Foundation
import ThreadModel

/// An account's one sync: a long-poll `/sync` loop on a thread of its own that carries out its
/// `SyncSchedule` with the real clock and hands each answer, whole, to its listeners (the
/// rooms open, the list of rooms). Two rooms of one account never run two syncs.
///
/// Listeners come and go while it runs; `stop()` ends it, the request in flight at once.
public final class MatrixAccountSync: @unchecked Sendable {
    /// A session of its own: `stop()` cancels its requests only, not the rooms' sends.
    let client: MatrixClient
    let filter: JSONValue
    private let lock = NSLock()
    private var schedule: SyncSchedule
    /// Whether the position was chosen (given, or adopted from the first listener).
    private var hasPosition: Bool
    private var listeners: [WeakListener] = []
    private var isStarted = false
    private var isStopped = false
    /// Whether the loop's thread has returned (its last request ended).
    private var threadEnded = false
    /// Signalled when the loop's thread returns: `stop()` waits for it (bounded), so a process
    /// that exits right after is never tearing down the TLS library under a request in flight.
    private let ended = DispatchSemaphore(value: 0)
    /// The longest `stop()` waits for the loop's thread.
    static let stopWait: TimeInterval = 3
    private var requests = 0
    /// The `next_batch` of the newest answer handed to the listeners (nil before the first).
    private var answeredPosition: String?
    /// Seconds a sync's answer may take past its long poll's wait, start to last byte.
    private var margin: TimeInterval = 30
    /// Wakes the loop from a wait (stop, a proven connection).
    private let signal = NSCondition()
    /// Signalled when an answer sets the position, and at stop (`awaitPosition`).
    private let positionKnown = NSCondition()
    /// Held while listeners are told of the connection, so states set from two threads (the
    /// loop's, a stall watch's, a send's) reach them in the order they were set.
    private let telling = NSLock()
    private var told = ConnectionState.connecting
    /// The account's room keys (`MatrixRoomKeys`): each answer's to-device events and key
    /// counts go to them before any listener reads the rooms, so a room key that came with a
    /// message decrypts it. Set before `start()`; nil: encrypted rooms stay unread.
    private var keys: MatrixRoomKeys?
    /// The account's room keys, if it reads encrypted rooms.
    var roomKeys: MatrixRoomKeys? {
        get { locked { keys } }
        set { locked { keys = newValue } }
    }
    /// The account's clock: `SyncSchedule` is given time since this.
    private let origin = ContinuousClock.now

    private struct WeakListener {
        weak var listener: MatrixSyncListener?
    }

    /// An account's sync (not started) resuming from `since`, nil for the first listener's
    /// position (or, with none given, an initial sync).
    public init(client: MatrixClient, since: String? = nil, filter: JSONValue = MatrixAccountFilter.lean) {
        self.client = MatrixClient(homeserver: client.homeserver, accessToken: client.accessToken)
        self.filter = filter
        schedule = SyncSchedule(since: since)
        hasPosition = since != nil
    }

    deinit { stop() }

    /// Starts the loop (once; later calls do nothing).
    public func start() {
        let starts = locked { () -> Bool in
            defer { isStarted = true }
            return !isStarted && !isStopped
        }
        guard starts else { return }
        let thread = Thread { [self] in
            run()
            locked { threadEnded = true }
            ended.signal()
        }
        thread.name = Self.threadName
        thread.start()
    }

    /// Ends the loop; a request in flight ends at once (within about a second).
    public func stop() {
        let wasStopped = locked { () -> Bool in
            defer { isStopped = true }
            return isStopped
        }
        guard !wasStopped else { return }
        client.cancelAll()
        signal.lock()
        signal.broadcast()
        signal.unlock()
        tellPosition()
        // Not from the loop's own thread (a listener stopping it), which would wait for itself.
        guard locked({ isStarted }), Thread.current.name != Self.threadName else { return }
        _ = ended.wait(timeout: .now() + Self.stopWait)
    }

    /// Whether the loop's thread has returned, after `stop()`.
    public var hasEnded: Bool { locked { threadEnded } }

    private static let threadName = "comment-tui.matrix.account-sync"

    /// Adds a listener that has the account's events up to `since` (a room's opening position).
    /// Returns whether it must catch up by itself from there: the sync may be past that
    /// position already, so what came between reaches it only so. Not before any request was
    /// made with no position given: the sync then starts from `since`.
    @discardableResult
    public func add(_ listener: MatrixSyncListener, since: String?) -> Bool {
        locked {
            listeners.append(WeakListener(listener: listener))
            if !hasPosition, schedule.adopt(since: since) {
                hasPosition = true
                return false
            }
            // Resuming from the listener's own position (or still at an initial sync, which
            // holds each room's newest events whatever came before): nothing to catch up.
            guard let current = schedule.since else { return false }
            return current != since
        }
    }

    /// Removes a listener: it is told nothing more (an answer being handed out may still reach it).
    public func remove(_ listener: MatrixSyncListener) {
        locked { listeners.removeAll { $0.listener == nil || $0.listener === listener } }
    }

    /// The connection's state as the schedule says it now.
    public var connection: ConnectionState { locked { schedule.connection } }

    /// Whether it was started and not stopped.
    public var isRunning: Bool { locked { isStarted && !isStopped } }

    /// The longest an opening waits for the first answer (`awaitPosition`).
    public static let positionWait: TimeInterval = 15

    /// The position once the sync has one: at once when it has, else waiting up to `timeout`
    /// seconds for its first answer while it runs; nil when it is not running, stops, or the
    /// time runs out.
    public func awaitPosition(timeout: TimeInterval) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        positionKnown.lock()
        defer { positionKnown.unlock() }
        while true {
            let (position, running) = locked { (answeredPosition, isStarted && !isStopped) }
            if position != nil || !running { return position }
            if !positionKnown.wait(until: deadline) { return locked { answeredPosition } }
        }
    }

    /// Wakes `awaitPosition` (an answer came, or the sync stopped).
    private func tellPosition() {
        positionKnown.lock()
        positionKnown.broadcast()
        positionKnown.unlock()
    }

    /// Where the sync stands: the `next_batch` of its newest answer, set just before its
    /// listeners are given it (nil until one came; a position it was merely given to resume
    /// from is not one).
    /// A room opening at it has what came up to it from the server and hears all after it from
    /// the answers that follow (or from its own catch-up, when the sync moved on meanwhile).
    public var position: String? { locked { answeredPosition } }

    /// `/sync` requests made so far.
    public var syncRequests: Int { locked { requests } }

    /// Bytes of answers received so far.
    public var bytesReceived: Int { client.bytesReceived }

    /// Seconds past its long poll's wait after which a sync still unanswered says `stalled`.
    public var stallGrace: TimeInterval {
        get { locked { schedule.stallGrace } }
        set { locked { schedule.stallGrace = newValue } }
    }

    /// Seconds a sync's answer may take past its long poll's wait, start to last byte.
    public var deadlineMargin: TimeInterval {
        get { locked { margin } }
        set { locked { margin = newValue } }
    }

    /// The longest a sync waits when the server answers 429.
    public var longestRateLimitWait: TimeInterval {
        get { locked { schedule.longestRateLimitWait } }
        set { locked { schedule.longestRateLimitWait = newValue } }
    }

    /// Another request of the account (a send) was answered: live, and a retry waiting out its
    /// backoff goes now.
    public func sendProven() {
        let changed = locked { schedule.sendProven(at: now) }
        wake()
        if changed { tellConnection() }
    }

    // MARK: The loop

    private func run() {
        while let step = locked({ isStopped ? nil : schedule.next(at: now) }) {
            // A retry starting says `connecting`.
            tellConnection()
            switch step {
            case .wait(let until):
                sleep(until: until)
            case .request(let request):
                perform(request)
            }
        }
    }

    private func perform(_ request: SyncSchedule.Request) {
        let margin = locked { () -> TimeInterval in
            requests += 1
            return self.margin
        }
        let watch = DispatchWorkItem { [weak self] in self?.checkStall() }
        // A hair late, so the check finds the request overdue on the account's clock.
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds(request.overdueAt - now) + 0.01, execute: watch)
        defer { watch.cancel() }
        do {
            let answer = try client.sync(since: request.since, filter: filter, wait: request.wait, margin: margin)
            guard let next = answer["next_batch"]?.string else {
                throw MatrixError(.malformed, "the homeserver's sync had no next_batch")
            }
            roomKeys?.take(answer)
            let targets = locked { () -> [MatrixSyncListener] in
                schedule.answered(nextBatch: next, at: now)
                answeredPosition = next
                return current
            }
            tellPosition()
            for listener in targets { try? listener.accountSynced(answer) }
            tellConnection()
        } catch let error as MatrixError {
            if error.kind == .cancelled, stopped { return }
            if let asked = error.retryAfter {
                // Nothing syncs meanwhile: the status bar says so rather than `live`.
                locked { schedule.rateLimited(retryAfter: asked, at: now) }
                tellConnection()
                return
            }
            let tells = locked { schedule.failed(error.isTransient ? .transient : .refused(error.kind), at: now) }
            tellConnection()
            // A refusal, a redirect (never followed: the token stays here) or a session ended
            // would only show as offline: the listeners are told why.
            if tells { for listener in locked({ current }) { listener.accountSyncFailed(error) } }
        } catch {
            _ = locked { schedule.failed(.transient, at: now) }
            tellConnection()
        }
    }

    /// The running request is overdue: the status says stalled. Checked and set under the lock
    /// the answer's `live` is set under, so a stall noticed as the answer comes is never told after it.
    private func checkStall() {
        guard locked({ !isStopped && schedule.checkStall(at: now) }) else { return }
        tellConnection()
    }

    /// Tells the listeners the connection's state if it changed since they were last told.
    private func tellConnection() {
        telling.lock()
        defer { telling.unlock() }
        let (state, targets) = locked { (schedule.connection, current) }
        guard state != told else { return }
        told = state
        for listener in targets { listener.accountConnectionChanged(state) }
    }

    /// Waits until `until` on the account's clock, or until woken (stop, a proven connection).
    private func sleep(until: Duration) {
        let left = seconds(until - now)
        guard left > 0 else { return }
        let deadline = Date().addingTimeInterval(left)
        signal.lock()
        defer { signal.unlock() }
        if !stopped { _ = signal.wait(until: deadline) }
    }

    private func wake() {
        signal.lock()
        signal.broadcast()
        signal.unlock()
    }

    // MARK: Helpers

    /// Time on the account's clock.
    private var now: Duration { ContinuousClock.now - origin }

    private var stopped: Bool { locked { isStopped } }

    /// The listeners still there (call locked).
    private var current: [MatrixSyncListener] {
        listeners.removeAll { $0.listener == nil }
        return listeners.compactMap(\.listener)
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
