import Foundation
import ThreadModel

/// One logged-in account in the client: its session, its one sync (which the rooms open here
/// follow too), and what home knows of its rooms, kept between runs.
///
/// Home shows the cached rooms at once, with no request; the sync then resumes from the cached
/// token. Each answer updates the rooms on the sync's thread and posts every row to the client's
/// mailbox; the cache is written at most every `cacheInterval` seconds and at close.
final class AccountLink: MatrixSyncListener, @unchecked Sendable {
    let account: MatrixAccounts.Account
    let client: MatrixClient
    let sync: MatrixAccountSync
    private let mailbox: ClientMailbox
    private let cache: HomeCache?
    private let lock = NSLock()
    private var rooms: MatrixAccountRooms
    private var nextBatch: String?
    private var savedAt: Date?
    /// The rooms changed since the cache was written; the token alone moving is kept at close.
    private var unsaved = false
    private var tokenMoved = false
    /// Seconds between two writes of the home cache while answers come.
    static let cacheInterval: TimeInterval = 10
    /// The longest the first window is waited for before the sync starts anyway.
    static let windowDeadline: TimeInterval = 5
    /// Rooms a cold start asks for first (`MatrixFirstWindow`); nil: the initial sync alone.
    let firstWindow: Int?
    /// A sync answer came (the window, answered later, is then stale); the window's rows are
    /// listed; the link was closed.
    private var hasSynced = false
    private var showsWindow = false
    private var isClosed = false
    /// The first window's request while it runs, and its thread (entered until it ends).
    private var windowSession: MatrixClient?
    private let windowThread = DispatchGroup()
    /// Rooms whose posts (`/threads`) are to be asked for, one request at a time off the sync's
    /// thread, each at most once per few seconds (`PostsAskSchedule`); whether a start's rooms
    /// were asked for yet.
    private let postsQueue = DispatchQueue(label: "comment-tui.account-posts")
    /// The posts' requests go through a session of their own, which `close()` cancels and waits
    /// for (bounded), as the window's. Internal for tests.
    let postsSession: MatrixClient
    private let postsWork = DispatchGroup()
    private var postsSchedule = PostsAskSchedule()
    private var postsAsked = false
    /// Rooms whose posts a start asks for: the newest (and any with unread posts).
    static let postRooms = 20

    /// The account's link, its cached rooms posted to `mailbox` at once; the sync not started.
    /// - Parameter usesCache: false neither reads nor writes the home cache (`--no-cache`).
    /// - Parameter firstWindow: how many of the newest rooms a cold start lists first.
    init(account: MatrixAccounts.Account, client: MatrixClient, environment: [String: String], usesCache: Bool,
         mailbox: ClientMailbox, firstWindow: Int? = MatrixFirstWindow.rooms) {
        self.account = account
        self.firstWindow = firstWindow
        self.client = client
        postsSession = client.separateSession()
        self.mailbox = mailbox
        cache = usesCache ? HomeCache(account: account.userID, environment: environment) : nil
        var snapshot: HomeCache.Snapshot?
        do {
            snapshot = try cache?.load()
        } catch {
            // A cache that does not read costs one full sync, and says why.
            mailbox.post(.message(VisibleText.escape("\(error)"), isError: true))
        }
        rooms = snapshot?.rooms ?? MatrixAccountRooms(account: account.userID)
        nextBatch = snapshot?.nextBatch
        sync = MatrixAccountSync(client: client, since: snapshot?.nextBatch)
        sync.roomKeys = MatrixRoomKeys.open(client: client, account: account, environment: environment) {
            mailbox.post(.message(VisibleText.escape($0), isError: true))
        }
        let userID = account.userID
        sync.roomKeys?.verifications.onChange = { [mailbox] in mailbox.post(.verifications(account: userID)) }
        if snapshot != nil { mailbox.post(.summaries(account: account.userID, rooms.summaries)) }
        mailbox.post(.connection(account: account.userID, .connecting))
        _ = sync.add(self, since: snapshot?.nextBatch)
    }

    /// Starts following the account. With nothing cached (no position to resume from), home's
    /// first window of rooms is asked for first (`MatrixFirstWindow`): the initial sync of an
    /// account in hundreds of rooms takes its server seconds, the window tens of milliseconds.
    func start() {
        guard let firstWindow, lock.withLock({ nextBatch == nil }) else { return sync.start() }
        // Not on the loop's thread. The sync starts after it, so the two do not share the server
        // (unless a room opened first started it: the window is then dropped if it answers late).
        windowThread.enter()
        Thread.detachNewThread { [self] in
            readFirstWindow(rooms: firstWindow)
            sync.start()
            windowThread.leave()
        }
    }

    /// Asks for the first window and lists its rooms, unless the sync answered first. A server
    /// without sliding sync (or any failure) costs nothing but the request: the sync lists all.
    private func readFirstWindow(rooms count: Int) {
        // A session of its own, which `close()` cancels.
        let session = client.separateSession()
        let asks = lock.withLock { () -> Bool in
            windowSession = isClosed ? nil : session
            return !isClosed
        }
        guard asks else { return }
        defer { lock.withLock { windowSession = nil } }
        let window: JSONValue
        do {
            window = try session.request("POST", MatrixFirstWindow.path, query: ["timeout": "0"], body: MatrixFirstWindow.body(rooms: count),
                                        timeout: Self.windowDeadline, limit: MatrixAnswerLimit.large)
        } catch {
            return
        }
        list(firstWindow: window)
    }

    /// Lists the rooms of a first window's answer, their counts pending, unless the sync
    /// answered first.
    func list(firstWindow window: JSONValue) {
        let reading = MatrixFirstWindow.read(window, me: account.userID)
        // Posted under the lock, as the sync's rows are: a whole list is never overtaken by these.
        lock.withLock {
            guard !hasSynced, !isClosed else { return }
            rooms.apply(sync: reading.answer, at: Date())
            showsWindow = true
            let rows = rooms.summaries.map { row -> ThreadSummary in
                var row = row
                row.countsPending = true
                return row
            }
            mailbox.post(.summaries(account: account.userID, rows))
            mailbox.post(.roomsComing(account: account.userID, count: max(0, (reading.total ?? 0) - rooms.roomIDs.count)))
        }
    }

    /// Stops the sync and keeps what home knows for the next start.
    func close() {
        let window = lock.withLock { () -> MatrixClient? in
            isClosed = true
            return windowSession
        }
        // The window's request ends at once; its thread is waited for (bounded), as the sync's
        // is, so a process that exits next is not tearing down TLS under it.
        window?.cancelAll()
        _ = windowThread.wait(timeout: .now() + MatrixAccountSync.stopWait)
        postsSession.cancelAll()
        _ = postsWork.wait(timeout: .now() + MatrixAccountSync.stopWait)
        sync.remove(self)
        sync.stop()
        saveCache(force: true)
    }

    /// An answer: home's rows posted, and the cache written, only when a room changed (a long
    /// poll that ends with nothing new costs the loop nothing).
    func accountSynced(_ answer: JSONValue) throws {
        let posted = lock.withLock { () -> Bool in
            let windowDone = showsWindow
            hasSynced = true
            showsWindow = false
            let before = rooms
            // The first answer after the window is the initial sync, whole: a room only the
            // window listed (left since) goes.
            if windowDone { rooms = MatrixAccountRooms(account: rooms.account, limits: rooms.limits) }
            // Encrypted rooms' previews decrypted where the keys are at hand.
            rooms.apply(sync: sync.roomKeys?.decryptingTimelines(of: answer) ?? answer, at: Date())
            if let next = answer["next_batch"]?.string, next != nextBatch {
                nextBatch = next
                tokenMoved = true
            }
            // After the window, the rows are posted whatever changed: they now have their counts.
            // Nothing more is coming then. Posted under the lock, so in the order they were made.
            defer { if windowDone { mailbox.post(.roomsComing(account: account.userID, count: nil)) } }
            askForPosts(after: answer)
            guard rooms != before || windowDone else { return false }
            unsaved = true
            mailbox.post(.summaries(account: account.userID, rooms.summaries))
            return true
        }
        if posted { saveCache(force: false) }
    }

    /// Under the lock: the rooms whose posts an answer changed (a start: the newest rooms
    /// alone), asked for off the sync's thread as `postsSchedule` allows.
    private func askForPosts(after answer: JSONValue) {
        let wanted = rooms.roomsWantingPosts(after: answer, isFirst: !postsAsked, most: Self.postRooms)
        postsAsked = true
        guard !wanted.isEmpty else { return }
        if postsSchedule.want(wanted, now: Date()) { return startReadingPosts() }
        // Asked for too soon with no worker running: read once the spacing has passed.
        if !postsSchedule.isRunning { wakeForPosts() }
    }

    /// Under the lock: a wake-up when a room waiting for its spacing may be asked for.
    private func wakeForPosts() {
        guard !isClosed, let wait = postsSchedule.wakeIn(now: Date()) else { return }
        // Not waited for at close (a worker it starts is): the wake-up only queues.
        postsQueue.asyncAfter(deadline: .now() + wait) { [weak self] in
            guard let self else { return }
            self.lock.withLock { if !self.isClosed, self.postsSchedule.wake(now: Date()) { self.startReadingPosts() } }
        }
    }

    /// Under the lock: a worker reading the wanted rooms' posts, off the sync's thread.
    private func startReadingPosts() {
        postsWork.enter()
        postsQueue.async { [weak self] in
            self?.readPosts()
            self?.postsWork.leave()
        }
    }

    /// Reads the wanted rooms' posts, one room at a time; home's rows are posted after each.
    /// A room asked for again meanwhile is read again once the schedule allows (a wake-up).
    private func readPosts() {
        while let roomID = lock.withLock({ isClosed ? nil : postsSchedule.next(now: Date()) }) {
            let page = try? postsSession.threads(room: roomID, limit: MatrixRoomPosts.asked)
            lock.withLock {
                guard let page, !isClosed else { return }
                let before = rooms
                rooms.setPosts(roomID: roomID, MatrixRoomPosts(roots: page.roots, next: page.next, limits: rooms.limits))
                guard rooms != before else { return }
                unsaved = true
                mailbox.post(.summaries(account: account.userID, rooms.summaries))
            }
        }
        lock.withLock { if !postsSchedule.isRunning { wakeForPosts() } }
    }

    func accountConnectionChanged(_ state: ConnectionState) {
        mailbox.post(.connection(account: account.userID, state))
    }

    func accountSyncFailed(_ error: MatrixError) {
        mailbox.post(.message("\(VisibleText.escape(account.userID)): \(error.message)", isError: true))
    }

    /// Writes the home cache if something changed and it was last written long enough ago (or `force`).
    private func saveCache(force: Bool) {
        guard let cache else { return }
        let snapshot = lock.withLock { () -> HomeCache.Snapshot? in
            guard unsaved || (force && tokenMoved), let nextBatch else { return nil }
            if !force, let savedAt, Date().timeIntervalSince(savedAt) < Self.cacheInterval { return nil }
            unsaved = false
            tokenMoved = false
            savedAt = Date()
            return HomeCache.Snapshot(rooms: rooms.withoutDecryptedText, nextBatch: nextBatch)
        }
        guard let snapshot else { return }
        do { try cache.save(snapshot) } catch {
            mailbox.post(.message("home's cache not saved: \(VisibleText.escape("\(error)"))", isError: true))
        }
    }
}
