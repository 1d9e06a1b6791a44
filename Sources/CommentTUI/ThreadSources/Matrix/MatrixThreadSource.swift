import Foundation
import ThreadModel

/// A room on a Matrix homeserver as a thread: opened with one filtered sync, followed through
/// its account's one sync (`MatrixAccountSync`, shared with the account's other rooms, or its
/// own when none is given), paged back with `/messages`, written with idempotent sends.
///
/// The app's thread only queues work and takes updates; network calls happen on the account's
/// sync thread and two serial queues (sends, and everything else), which report through
/// `updates` and wake the loop's poll through `wake`.
public final class MatrixThreadSource: ThreadSource, OlderPages, GapFilling, TypingNotices, ReadReceipts, CatchingUp,
    ReplyTargets, ReaderMentions, PostOpening, @unchecked Sendable {
    /// The room as the status bar names it: its alias, else its name (following renames), else its id.
    public var label: String { labelLock.withLock { currentLabel } }
    /// The label now (under `labelLock`, apart from `lock`: the label is read while that is held).
    var currentLabel: String
    let labelLock = NSLock()
    /// The room's alias as opened: the title when the room's name is removed.
    let roomAlias: String?
    public let thread: CommentThread
    public var openedComments: CommentStore { opened }
    /// The opened page, oldest first.
    let opened: ArrayCommentStore
    public var openingProblems: [ThreadFileProblem] { [] }
    public var updatesReady: FileDescriptor? { wake.readEnd }
    public let draftFile: DraftFile?
    public let unsentComments: [Comment]
    /// Where comments wait until the server has them; nil when no data directory is known.
    let outbox: CommentOutbox?
    /// The room's id.
    public let roomID: String
    /// The reader's user id.
    public let me: String
    /// When the room was opened here: what its first syncs bring from before rings no bell.
    public let openedAt: Date? = Date()
    /// Whether read receipts are private (`m.read.private`).
    public var privateReceipts = false

    let client: MatrixClient
    let wake: WakePipe
    let filter: JSONValue
    /// Guards everything below, shared with the network threads.
    let lock = NSLock()
    var timeline: MatrixTimeline
    var queued: [ThreadUpdate] = []
    /// Where older pages start; nil once the room's start is reached.
    var olderToken: String?
    var isLoadingOlder = false
    /// The tokens older pages were asked from: a page leading back to one is the room's start.
    var olderWalk = OlderPagesWalk()
    /// Gaps reported to the app, by id: the fill that reads on there (where the comments still
    /// missing end, and the tokens the gap's pages were asked from).
    var gaps: [String: GapFill] = [:]
    /// Where the room's events are applied up to (the account's sync's `next_batch`, or its own
    /// catch-up's): the offline copy resumes there, and a catch-up of its own starts there.
    var nextBatch: String?
    var connection: ConnectionState = .live
    var isStopped = false
    /// `m.fully_read` as it was before this start, and where it stands among the opened
    /// comments if the opening page held it (`MatrixRoomOpening.fullyReadPosition`).
    let fullyRead: String?
    let fullyReadPosition: Int?
    /// `m.fully_read` when neither the opened page nor the offline copy holds its event: looked
    /// for among the events of each older page (`OlderReadMarker`), nil once found.
    var markerInOlder: String?
    /// The read marker waiting to be sent, and the event the server has it on.
    var markerDue: ReadMarker?
    var markerSent: String?
    let sendQueue = DispatchQueue(label: "comment-tui.matrix.send")
    let workQueue = DispatchQueue(label: "comment-tui.matrix.work")
    /// Wakes a sleeping retry early (stop).
    let retrySignal = NSCondition()
    /// The account's one sync, which the room follows; `ownsAccountSync` when it was made for
    /// this room alone (none was given), and ends with it.
    let accountSync: MatrixAccountSync
    let ownsAccountSync: Bool
    /// Catching up by itself (joining a sync already past its position, or after an answer
    /// it could not apply): the account's answers wait in `heldAnswers` until it has.
    var isCatchingUpAlone = false
    var heldAnswers: [JSONValue] = []
    /// The room's snapshot on disk, and what the next one holds: the opened page and what came
    /// since (trimmed at a sync batch's start), with the token before them.
    let cache: MatrixRoomCache?
    var cached: (comments: [Comment], olderToken: String?)
    var cacheSavedAt: Date?
    /// Opened from the cache: not in touch with the server until the first sync answers.
    let isFromCache: Bool
    /// Whether a sync has brought what was written while the room was closed (at once when
    /// opened from the server; after the first sync when opened from the cache).
    var hasCaughtUp = true
    /// Comments of ours on their way, by transaction id (for the cache once confirmed).
    var sending: [String: Comment] = [:]
    /// Comments of ours refused for good (here or in an earlier run), by transaction id, with the
    /// reason in `notSent`: kept for a retry, never sent on their own.
    var refused: [String: CommentOutbox.Entry] = [:]
    /// Our edits and deletions on their way, by transaction id: the comment as it was before,
    /// shown again if the server refuses the change.
    var changedFrom: [String: Comment] = [:]
    /// When the homeserver last answered (the opening, a sync, a send): a send's timeout counts
    /// against it only while it is heard from (`isInTouch`).
    var heardFrom: Date?
    /// The server ended the session (a send was answered `M_UNKNOWN_TOKEN`): nothing more is sent.
    var isSignedOut = false
    /// Seconds one send attempt waits for the server's answer.
    var sendTimeout: TimeInterval = 20
    /// Seconds a sync's answer may take past its long poll's wait, start to last byte (the
    /// account's sync's: tests shorten it on a room's own).
    var syncDeadlineMargin: TimeInterval {
        get { accountSync.deadlineMargin }
        set { accountSync.deadlineMargin = newValue }
    }
    /// Seconds past its long poll's wait after which a sync still unanswered says `stalled`.
    var syncStallGrace: TimeInterval {
        get { accountSync.stallGrace }
        set { accountSync.stallGrace = newValue }
    }
    /// The longest a send, and a sync of the room's own, waits when the server answers 429
    /// (tests shorten it).
    var longestRateLimitWait: TimeInterval = MatrixServerNumber.longestRetryWait {
        didSet { if ownsAccountSync { accountSync.longestRateLimitWait = longestRateLimitWait } }
    }
    /// One send attempt, returning the event id (tests put a misbehaving homeserver here).
    var sendAttempt: (_ client: MatrixClient, _ room: String, _ type: String, _ transactionID: String, _ content: JSONValue,
                      _ timeout: TimeInterval) throws -> String = { client, room, type, transactionID, content, timeout in
        try client.send(room: room, type: type, transactionID: transactionID, content: content, timeout: timeout)
    }
    /// What makes a message call for the reader (the bell), and the events that did, until the app asks.
    var readerMention: MatrixReaderMention
    var callingEvents: Set<String> = []
    /// The title and post as the room's state changed them since opening (nil: as opened).
    var liveHeader: ThreadHeader?
    /// The pinned events as the room's state last listed them (nil: not seen since opening).
    var pinnedEvents: [String]?
    /// Our reactions (or their taking back) on their way, by event and key (`+Reactions`).
    var reactionsOnTheirWay: Set<String> = []
    /// Our reactions kept in the outbox and not answered yet, by event and key: a toggle
    /// cancels one (`+ReactionOutbox`).
    var queuedReactions: [String: CommentOutbox.Entry] = [:]
    /// Transaction ids of reactions cancelled before the server answered them.
    var cancelledReactions: Set<String> = []
    /// Transaction ids of our reactions that may have reached the server (resumed from the
    /// outbox, or an attempt started): taken back, they are redacted, never cancelled silently.
    var reactionsMaybeSent: Set<String> = []
    /// Takings back of such reactions, by event and key (`+ReactionTakeBack`).
    var reactionTakeBacks: [String: ReactionTakeBack] = [:]
    /// Reply targets fetched for the app (not loaded), by event id: their comment ids.
    var fetchedReplyTargets: [String: String] = [:]
    /// The message a permalink named, which the thread opens at (`+LinkedComment`); nil: none.
    var linkedEvent: String?
    /// Why the permalink opened no message (`MatrixRoomAddress.linkedNote`); nil: none.
    var linkedNote: String?
    /// When the reader's typing notices go (`+Sending`), on the source's own clock.
    var typingSchedule = TypingSchedule()
    let typingOrigin = ContinuousClock.now

    /// How many events a page asks for (the opening sync's and each older one): in a
    /// 10,000-message room on Synapse a page of 100 took twice as long as one of 50.
    static let pageSize = 50

    /// Opens the room (blocking: the verbs and the worker call it before the terminal is set up):
    /// from the cache when one reads, with no request (so offline too), else from the server.
    /// - Parameter usesCache: false ignores the cache, neither reading nor writing it (`--no-cache`).
    /// - Parameter joinsEncrypted: join an encrypted room the account is only invited to (refused otherwise).
    /// - Parameter accountSync: the account's sync to follow the room through (the caller starts
    ///   and stops it); nil makes one for this room, started with it and stopped at `close()`.
    ///   Where it has a position already, a joined room opens from there, with no sync of its own.
    public convenience init(client: MatrixClient, address: MatrixRoomAddress, me: String,
                            environment: [String: String], follows: Bool = true, usesCache: Bool = true,
                            joinsEncrypted: Bool = false, accountSync: MatrixAccountSync? = nil) throws {
        let address = Self.permalinkResolved(address, client: client)
        let cache = usesCache ? MatrixRoomCache(me: me, address: address, environment: environment) : nil
        let opening = try cache?.load().map { MatrixRoomOpening(snapshot: $0, me: me, pageSize: Self.pageSize, root: address.postRoot) }
            ?? Self.opening(client: client, address: address, me: me, joinsEncrypted: joinsEncrypted, accountSync: accountSync)
        try self.init(opening: opening, client: client, environment: environment, follows: follows, cache: cache,
                      accountSync: accountSync)
        locked { (linkedEvent, linkedNote) = (address.linkedEvent, address.linkedNote) }
    }

    init(opening: MatrixRoomOpening, client: MatrixClient, environment: [String: String], follows: Bool,
         cache: MatrixRoomCache? = nil, accountSync: MatrixAccountSync? = nil) throws {
        self.cache = cache
        self.accountSync = accountSync ?? MatrixAccountSync(client: client)
        ownsAccountSync = accountSync == nil
        cached = (opening.comments, opening.olderToken)
        isFromCache = opening.isFromCache
        connection = opening.isFromCache ? .connecting : .live
        hasCaughtUp = !opening.isFromCache
        heardFrom = opening.isFromCache ? nil : Date()
        // A session of its own: `stop()` cancels every request of it, and the caller's client
        // may serve other rooms.
        self.client = MatrixClient(homeserver: client.homeserver, accessToken: client.accessToken)
        roomID = opening.roomID
        me = opening.me
        currentLabel = opening.label
        roomAlias = opening.alias
        thread = opening.thread
        opened = ArrayCommentStore(opening.comments)
        timeline = opening.timeline
        olderToken = opening.olderToken
        nextBatch = opening.nextBatch
        fullyRead = opening.fullyRead
        fullyReadPosition = opening.fullyReadPosition
        if opening.fullyReadPosition == nil, let fullyRead = opening.fullyRead, !opening.comments.contains(where: { $0.id == fullyRead }) {
            markerInOlder = fullyRead
        }
        // On the comment it stands after, when it is on another event: the offline copy finds it.
        markerSent = opening.fullyReadPosition.flatMap { $0 >= 0 ? opening.comments[$0].id : nil } ?? opening.fullyRead
        filter = opening.filter
        readerMention = MatrixReaderMention(me: opening.me, power: opening.power)
        wake = try WakePipe()
        let state = Self.stateFiles(me: me, roomID: roomID, root: opening.timeline.scope.root, environment: environment)
        draftFile = state.map(DraftFile.init)
        outbox = state.map { CommentOutbox(files: $0) }
        // What an earlier run queued: the server has the ones the opening page echoed; the rest
        // go again under their transaction ids.
        var waiting: [CommentOutbox.Entry] = []
        var kept: [CommentOutbox.Entry] = []
        var outboxProblem: String?
        do {
            kept = try outbox?.unsent() ?? []
        } catch {
            outboxProblem = "the outbox is not read: \(error)"
        }
        for entry in kept {
            if let event = timeline.echoedTransactions[entry.txn] {
                try? outbox?.markSent(entry.txn, event: event)
            } else {
                waiting.append(entry)
            }
        }
        // Edits and deletions of ours not sent yet go again too; they are no comments to show.
        let changes = waiting.filter(\.isChange)
        waiting.removeAll(where: \.isChange)
        // One refused in an earlier run (kept before refusals were dropped) is never sent.
        for entry in changes where entry.notSent != nil { try? outbox?.discard(entry.txn) }
        unsentComments = follows ? waiting.map(\.comment) : []
        // Refused in an earlier run: shown not sent, with the reason, until the reader acts.
        if follows { for entry in waiting where entry.notSent != nil { refused[entry.txn] = entry } }
        if !isFromCache { saveCache() }
        if !opening.departed.isEmpty { report([.membersChanged(joined: [], left: opening.departed.sorted())]) }
        if let outboxProblem { report([.problem(ThreadProblem(.notKept, outboxProblem))]) }
        // The opening page's reactions, drawn under the comments they annotate.
        report(timeline.allReactionUpdates())
        // And its posts, summed up under their roots.
        report(timeline.allPostSummaryUpdates())
        restoreWaitingKeysFromBackup()
        if follows {
            startSyncing()
            for entry in waiting where entry.notSent == nil { resend(entry) }
            for entry in changes where entry.notSent == nil { resendChange(entry) }
        }
    }

    deinit { stop() }

    /// Where the draft and the outbox of a room are kept for an account: named by the room's id,
    /// which never changes (its name and aliases may).
    /// A post's are its own (by its root): its comments are sent in its thread, not the room's.
    static func stateFiles(me: String, roomID: String, root: String? = nil, environment: [String: String]) -> ThreadStateFiles? {
        let key = "matrix:\(me):\(roomID)" + (root.map { "/" + $0 } ?? "")
        return ThreadStateFiles(key: key, name: roomID + (root.map { "/" + $0 } ?? ""), environment: environment)
    }

    public var notSentReasons: [String: SendFailure] { locked { refused.compactMapValues(\.notSent) } }

    public var outboxPath: String? { outbox?.path }

    /// The reader as a thread user.
    public var reader: User { locked { timeline.members.user(id: me) } }

    public func close() { stop() }

    /// Stops following the account's sync (stopping it when it is the room's own) and sending
    /// (requests in flight end at once), and saves the offline copy.
    public func stop() {
        lock.lock()
        let wasStopped = isStopped
        isStopped = true
        lock.unlock()
        guard !wasStopped else { return }
        accountSync.remove(self)
        if ownsAccountSync { accountSync.stop() }
        saveCache()
        client.cancelAll()
        retrySignal.lock()
        retrySignal.broadcast()
        retrySignal.unlock()
    }

    /// Bytes received from the homeserver since opening (the opening's own requests aside; the
    /// account's sync's when it is the room's own).
    public var bytesReceived: Int { client.bytesReceived + (ownsAccountSync ? accountSync.bytesReceived : 0) }

    public var hasOlderComments: Bool {
        lock.lock()
        defer { lock.unlock() }
        return olderToken != nil
    }

    public func takeUpdates() -> [ThreadUpdate] {
        wake.drain()
        lock.lock()
        defer { lock.unlock() }
        let updates = queued
        queued = []
        return updates
    }

    /// Queues updates for the app and wakes its loop (any thread).
    func report(_ updates: [ThreadUpdate]) {
        guard !updates.isEmpty else { return }
        lock.lock()
        queued += updates
        lock.unlock()
        wake.wake()
    }

    /// Runs `body` under the lock.
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Whether `stop()` was called.
    var stopped: Bool { locked { isStopped } }

    /// Waits up to `seconds`, or until `stop()`; false when stopped.
    func pause(_ seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        retrySignal.lock()
        defer { retrySignal.unlock() }
        while !stopped, Date() < deadline { _ = retrySignal.wait(until: deadline) }
        return !stopped
    }

    // MARK: Read marker

    /// The marker before this start: on its comment; on the last comment before it when it is
    /// on another event; at -1 (every comment opened unread) when it is older than all of them,
    /// just above them (empty id: the page holds its event) or in older pages (its event id).
    public func loadReadMarker() -> ReadMarker? {
        guard let fullyRead else { return nil }
        let comments = opened.comments
        if let position = comments.firstIndex(where: { $0.id == fullyRead }) { return ReadMarker(commentID: fullyRead, position: position) }
        if let position = fullyReadPosition { return ReadMarker(commentID: position >= 0 ? comments[position].id : "", position: position) }
        return ReadMarker(commentID: fullyRead, position: -1)
    }

    /// Opened from the offline copy: what came while away comes with the first sync, then
    /// `.caughtUp`. Fixed at opening: that sync (asking for no wait) may answer before the app
    /// asks, and its comments and `.caughtUp` wait in the queue for the app all the same.
    public var isCatchingUp: Bool { isFromCache }

    /// Moves `m.fully_read` and the read receipt to the comment (at exit; waits at most 2 s).
    public func saveReadMarker(_ marker: ReadMarker) throws {
        guard let eventID = locked({ timeline.eventID(forComment: marker.commentID) }),
              eventID != locked({ markerSent }) else { return }
        try moveReadMarkers(to: eventID, timeout: 2)
        // The offline copy saved at close keeps it: a reopen from it starts from here.
        locked { markerSent = eventID }
    }

    /// Moves the markers in the background as the reader reads; only the newest waits to go.
    public func readMarkerMoved(_ marker: ReadMarker) {
        let due = locked { () -> Bool in
            defer { markerDue = marker }
            return markerDue == nil
        }
        guard due else { return }
        workQueue.async { [weak self] in
            guard let self, !self.stopped else { return }
            let next = self.locked { () -> String? in
                defer { self.markerDue = nil }
                return self.markerDue.flatMap { self.timeline.eventID(forComment: $0.commentID) }
            }
            guard let eventID = next, eventID != self.locked({ self.markerSent }) else { return }
            if (try? self.moveReadMarkers(to: eventID)) != nil {
                self.locked { self.markerSent = eventID }
            }
        }
    }
}
