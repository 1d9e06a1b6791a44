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

    /// The account's link, its cached rooms posted to `mailbox` at once; the sync not started.
    /// - Parameter usesCache: false neither reads nor writes the home cache (`--no-cache`).
    init(account: MatrixAccounts.Account, client: MatrixClient, environment: [String: String], usesCache: Bool,
         mailbox: ClientMailbox) {
        self.account = account
        self.client = client
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
        if snapshot != nil { mailbox.post(.summaries(account: account.userID, rooms.summaries)) }
        mailbox.post(.connection(account: account.userID, .connecting))
        _ = sync.add(self, since: snapshot?.nextBatch)
    }

    /// Starts following the account.
    func start() { sync.start() }

    /// Stops the sync and keeps what home knows for the next start.
    func close() {
        sync.remove(self)
        sync.stop()
        saveCache(force: true)
    }

    /// An answer: home's rows posted, and the cache written, only when a room changed (a long
    /// poll that ends with nothing new costs the loop nothing).
    func accountSynced(_ answer: JSONValue) throws {
        let rows = lock.withLock { () -> [ThreadSummary]? in
            let before = rooms
            rooms.apply(sync: answer, at: Date())
            if let next = answer["next_batch"]?.string, next != nextBatch {
                nextBatch = next
                tokenMoved = true
            }
            guard rooms != before else { return nil }
            unsaved = true
            return rooms.summaries
        }
        guard let rows else { return }
        mailbox.post(.summaries(account: account.userID, rows))
        saveCache(force: false)
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
            return HomeCache.Snapshot(rooms: rooms, nextBatch: nextBatch)
        }
        guard let snapshot else { return }
        do { try cache.save(snapshot) } catch {
            mailbox.post(.message("home's cache not saved: \(VisibleText.escape("\(error)"))", isError: true))
        }
    }
}
