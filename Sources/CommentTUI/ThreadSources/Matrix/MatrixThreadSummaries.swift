import Foundation
import ThreadModel

/// The posts (Matrix threads) of a room as its feed sums them up under their roots: from the
/// aggregation servers bundle with a root (`unsigned["m.relations"]["m.thread"]`: `count`,
/// `latest_event`), from replies arriving live, and whether they are read (the sync's
/// `unread_thread_notifications`, else our read receipts: threaded, or unthreaded covering all
/// posts, compared by the events' order, `MatrixEventOrder`).
///
/// Pure, and hostile input throughout: counts are clamped, a root's entry is bounded in number.
struct MatrixThreadSummaries {
    /// One post's replies as known.
    struct Entry: Equatable {
        var count: Int
        /// The newest reply's event (nil: a bundle that named none).
        var latestEventID: String?
        var latestSender: String
        var latestAt: Date
    }

    /// What the server counts as unread in one post.
    struct Counts: Equatable {
        var notifications: Int
        var highlights: Int
    }

    /// The most replies a count says (a hostile bundle may say 10^300).
    static let mostReplies = 999_999
    /// The most posts kept whose root is not a known comment (replies to roots further back).
    static let mostLooseRoots = 2000

    private(set) var entries: [String: Entry] = [:]
    /// The server's unread counts by root; nil until a sync said (then a root it leaves out has none).
    private(set) var counts: [String: Counts]?
    /// The replies counted live, by event id, and the post each is in: a redaction of one takes it
    /// off the count (a page's newer bundle counts as the server does), and none counts twice.
    /// At most `mostCountedReplies`: past it the oldest quarter is forgotten (`countedOrder`, which
    /// may still name a redacted one: forgetting it again is harmless).
    private var counted: [String: String] = [:]
    private var countedOrder: [String] = []
    static let mostCountedReplies = 10_000
    /// The most posts with server counts kept from one sync (a hostile sync may name millions).
    static let mostCounted = 2000
    /// Roots whose bundle was read in the batch being applied, with its newest reply: the replies
    /// of that batch up to it are in the bundle's count already.
    private var bundledInBatch: [String: String] = [:]
    /// Roots whose count may be off (a reply older than the newest known, after a limited sync):
    /// their bundle is to be read again from the server (`takeStale`).
    private(set) var stale: Set<String> = []
    /// Roots read again, with their newest reply's time: a reply older than it that arrives
    /// later (a gap filled) existed when the server counted, so it is in the count already.
    private var settledAt: [String: Date] = [:]
    /// The event our newest threaded receipt in each post is on, by root.
    private(set) var readThrough: [String: String] = [:]
    /// The event our newest unthreaded receipt is on: it covers every post up to it.
    private(set) var readAllThrough: String?
    /// The order of the events met, which receipts are compared by.
    var order = MatrixEventOrder()

    /// A count from a server's JSON, clamped to `0...mostReplies`; nil when it is no number.
    static func count(_ value: JSONValue?) -> Int? {
        guard case .number(let n)? = value, !n.isNaN else { return nil }
        return Int(min(max(n, 0), Double(mostReplies)))
    }

    /// Whether a root id from the server is one we keep (hostile ids are left out).
    static func isRootID(_ id: String) -> Bool { id.hasPrefix("$") && id.utf8.count <= 255 }

    /// Reads a root event's bundled thread aggregation; the root when it changed what is known.
    /// A bundle replaces what is known unless that is newer (a reply arrived live since), or
    /// always when it was read again because the count was stale (`fresh`).
    mutating func read(bundleOf root: JSONValue, fresh: Bool = false) -> String? {
        guard let rootID = root["event_id"]?.string, Self.isRootID(rootID),
              let bundle = root["unsigned"]?["m.relations"]?["m.thread"], bundle.object != nil else { return nil }
        let latest = bundle["latest_event"]
        guard let sender = latest?["sender"]?.string, !sender.isEmpty else { return nil }
        let entry = Entry(count: Self.count(bundle["count"]) ?? 1, latestEventID: latest?["event_id"]?.string, latestSender: sender,
                          latestAt: MatrixServerNumber.time(milliseconds: latest?["origin_server_ts"]))
        if fresh {
            stale.remove(rootID)
            if settledAt.count < Self.mostCounted || settledAt[rootID] != nil {
                settledAt[rootID] = MatrixServerNumber.time(milliseconds: latest?["origin_server_ts"])
            }
        }
        if let known = entries[rootID], (!fresh && known.latestAt > entry.latestAt) || known == entry { return nil }
        entries[rootID] = entry
        if !fresh { bundledInBatch[rootID] = entry.latestEventID ?? "" }
        return rootID
    }

    /// The batch being applied ended: its bundles no longer cover replies arriving after it.
    mutating func batchEnded() { bundledInBatch = [:] }

    /// A limited sync brought these posts' replies: others may be missing from the counts.
    mutating func markStale(_ roots: some Sequence<String>) {
        for root in roots where entries[root] != nil { stale.insert(root) }
    }

    /// The roots to read again (at most `limit`), no longer marked.
    mutating func takeStale(limit: Int) -> [String] {
        let taken = Array(stale.sorted().prefix(limit))
        stale.subtract(taken)
        return taken
    }

    /// A reply in a post arrived as newer (each event once: the timeline's `applied`); true when
    /// it counts. Replies are told apart by event id, not time (a gap filled brings older ones, a
    /// server's clock may be behind): only the bundle's newest reply, and the replies before it in
    /// the batch that brought the bundle, are in its count already. A reply older than the newest
    /// known counts but marks the post stale: a bundle read earlier may have held it.
    mutating func replyArrived(root: String, eventID: String, sender: String, at: Date) -> Bool {
        guard Self.isRootID(root), counted[eventID] == nil, settledAt[root].map({ at > $0 }) ?? true else { return false }
        var entry = entries[root] ?? Entry(count: 0, latestEventID: nil, latestSender: sender, latestAt: at)
        if entries[root] != nil {
            if eventID == entry.latestEventID { bundledInBatch[root] = nil; return false }
            if bundledInBatch[root] != nil { return false }
        }
        entry.count = min(entry.count + 1, Self.mostReplies)
        remember(counted: eventID, in: root)
        if entries[root] == nil || at >= entry.latestAt {
            entry.latestEventID = eventID
            entry.latestSender = sender
            entry.latestAt = at
        } else {
            stale.insert(root)
        }
        entries[root] = entry
        return true
    }

    /// Keeps a counted reply, forgetting the oldest quarter when full.
    private mutating func remember(counted eventID: String, in root: String) {
        if countedOrder.count >= Self.mostCountedReplies {
            let dropped = countedOrder.prefix(Self.mostCountedReplies / 4)
            for id in dropped { counted[id] = nil }
            countedOrder.removeFirst(dropped.count)
        }
        counted[eventID] = root
        countedOrder.append(eventID)
    }

    /// A reply counted live was redacted: it is off its post's count; the post, if it was one.
    /// (The newest reply shown stays until a page's bundle says which is newest now.)
    mutating func replyRedacted(_ eventID: String) -> String? {
        guard let root = counted.removeValue(forKey: eventID), var entry = entries[root] else { return nil }
        entry.count = max(0, entry.count - 1)
        entries[root] = entry
        return root
    }

    /// The server's unread counts for the room in a sync that holds it (`unread_thread_notifications`:
    /// absent when it counts none); the roots whose counts changed. Until a sync has held them
    /// once, their absence says nothing (a server that does not count per post never sends them).
    mutating func countsArrived(_ value: JSONValue?) -> Set<String> {
        guard value?.object != nil || counts != nil else { return [] }
        var now: [String: Counts] = [:]
        for (root, counts) in value?.object ?? [:] where Self.isRootID(root) && now.count < Self.mostCounted {
            let notifications = Self.count(counts["notification_count"]) ?? 0
            let highlights = Self.count(counts["highlight_count"]) ?? 0
            if notifications > 0 || highlights > 0 { now[root] = Counts(notifications: notifications, highlights: highlights) }
        }
        let before = counts
        counts = now
        guard let before else { return Set(now.keys).union(entries.keys) }
        return Set(now.keys.filter { now[$0] != before[$0] }).union(before.keys.filter { now[$0] == nil })
    }

    /// Our read receipt on an event: in a post (`thread_id` its root), or unthreaded (nil: it
    /// covers every post up to it); true when it moved. The server sends our newest of each.
    mutating func readReceipt(root: String?, eventID: String) -> Bool {
        guard let root else {
            defer { readAllThrough = eventID }
            return readAllThrough != eventID
        }
        guard Self.isRootID(root), readThrough.count < Self.mostCounted || readThrough[root] != nil,
              readThrough[root] != eventID else { return false }
        readThrough[root] = eventID
        return true
    }

    /// A post as the offline copy kept it.
    mutating func adopt(root: String, _ entry: Entry) { entries[root] = entry }

    /// Forgets posts past `mostLooseRoots` whose root is not among the comments (`isKnown`).
    mutating func bound(isKnown: (String) -> Bool) {
        guard entries.count > Self.mostLooseRoots else { return }
        let loose = entries.filter { !isKnown($0.key) }.sorted { $0.value.latestAt < $1.value.latestAt }
        for (root, _) in loose.prefix(max(0, entries.count - Self.mostLooseRoots)) { entries[root] = nil }
    }

    /// A post's summary: unread as the server counts it when it said, else when its newest
    /// reply is someone else's and no receipt of ours covers it (none known: read).
    func summary(of root: String, me: String, name: (String) -> String) -> PostSummary? {
        guard let entry = entries[root], entry.count > 0 else { return nil }
        var summary = PostSummary(replyCount: entry.count, latestAuthor: entry.latestSender, latestName: name(entry.latestSender),
                                  latestAt: entry.latestAt)
        if let counts {
            let mine = counts[root] ?? Counts(notifications: 0, highlights: 0)
            summary.unreadCount = mine.notifications
            summary.mentionCount = mine.highlights
            summary.isUnread = mine.notifications > 0 || mine.highlights > 0
        } else if entry.latestSender != me, let latest = entry.latestEventID {
            let receipts = [readThrough[root], readAllThrough].compactMap { $0 }
            if !receipts.isEmpty { summary.isUnread = !receipts.contains { order.covers(receipt: $0, event: latest) } }
        }
        return summary
    }
}
