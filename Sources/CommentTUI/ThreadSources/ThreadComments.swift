import ThreadModel

/// The thread as the app holds it: header and users, and every comment known by position as
/// one collection — pages loaded older than the opened ones (kept in a temporary file, so paging
/// through a huge room holds a window in memory, not the room), the opened ones (decoded on
/// demand from the source's store), then those that arrived or were sent since.
///
/// Positions count from the oldest known comment, so loading older comments shifts them: the
/// feed is told by how much (`prepend`), and keeps its reading position. Among the added ones a
/// position may hold a gap: comments a server skipped, shown as a marker until they are loaded.
/// The reader's own comments still on their way stay last (`appendWaiting`): comments from the
/// source arrive above them, and each takes its place in the thread's order when the source
/// places it (`place`), so the collection follows the thread's order, not the order of sending.
final class ThreadComments {
    /// Header and users (the comments are held below).
    private(set) var thread: CommentThread
    /// What a position after the opened comments holds.
    private enum Added {
        case comment(Comment)
        /// Comments missing here; `isLoading` once they were asked for.
        case gap(id: String, isLoading: Bool)
    }
    private var added: [Added] = []
    private var addedIDs: Set<String> = []
    /// Ours among the added ones that the source has not placed yet.
    private var waiting: Set<String> = []
    /// Gaps among `added`: none, almost always, so the check each frame costs nothing.
    private var gapCount = 0
    private var opened: CommentStore
    private var older = SpilledComments()
    /// Whether the source has comments older than the oldest known.
    private(set) var hasOlder: Bool
    /// User ids by lowercased handle, for the mentions in comment bodies.
    private var userIDsByHandle = HandleIndex([])
    /// Edited comments by id: read over whatever the position holds.
    private var edits: [String: Comment] = [:] {
        didSet { editedIDs = Set(edits.keys) }
    }
    /// The ids of `edits`, kept for each slice of a search.
    private var editedIDs: Set<String> = []
    /// The newest stored comments' positions (in `opened`) by id, read once when a live change
    /// first looks one up (`indexForChange`); nil until then.
    private var recentStoredIDs: [String: Int]?

    init(thread: CommentThread, opened: CommentStore, hasOlder: Bool) {
        self.thread = thread
        self.opened = opened
        self.hasOlder = hasOlder
        indexHandles()
    }

    /// Comments known now.
    var count: Int { older.count + opened.commentCount + added.count }

    /// The comments among the positions: gap markers and lines found not to read (shown as
    /// their problem) are none.
    var commentCount: Int { count - gapCount - opened.unreadableCount }

    /// How many comments there are from the oldest known to `index` (a position), that one
    /// included: the positions less the gap markers and the lines that did not read among them.
    func commentOrdinal(through index: Int) -> Int {
        guard index >= 0 else { return 0 }
        let stored = index - older.count
        var ordinal = index + 1
        if stored >= 0 { ordinal -= opened.unreadableCount(through: min(stored, opened.commentCount - 1)) }
        if gapCount > 0, let last = addedSlot(index) ?? (index >= count ? added.count - 1 : nil) {
            for slot in 0...last { if case .gap = added[slot] { ordinal -= 1 } }
        }
        return ordinal
    }

    /// Comments held in memory: all but the older pages kept in the temporary file.
    var countInMemory: Int { older.countInMemory + opened.commentCount + added.count }

    /// What a position holds, edits applied (an encrypted row is a comment here: the source
    /// knows which are, `FeedModel.item(at:)`).
    func item(at index: Int) -> FeedItem {
        let found = unedited(at: index)
        guard !edits.isEmpty, case .comment(let comment) = found, let edited = edits[comment.id] else { return found }
        return .comment(edited)
    }

    /// The comment at a position; nil for a gap or a line that did not read.
    func comment(at index: Int) -> Comment? { item(at: index).comment }

    private func unedited(at index: Int) -> FeedItem {
        if index < older.count { return FeedItem(older.comment(at: index)) }
        let stored = index - older.count
        if stored < opened.commentCount { return FeedItem(opened.comment(at: stored)) }
        switch added[stored - opened.commentCount] {
        case .comment(let comment): return .comment(comment)
        case .gap(let id, let isLoading): return .gap(id: id, isLoading: isLoading)
        }
    }

    /// Ctrl-S's verdicts from the stored bytes for the positions below `end`, newest first,
    /// while they are the opened ones (`CommentStore`); nil where each comment must be read
    /// whole. An edited comment is undecided, so it is read with its edit over it.
    func searchVerdicts(_ pattern: SearchPattern, below end: Int, atMost count: Int, maxBytes: Int) -> SearchVerdicts? {
        let top = end - 1 - older.count
        guard top >= 0, top < opened.commentCount else { return nil }
        return opened.searchVerdicts(for: pattern, below: top + 1, atMost: min(count, top + 1), maxBytes: maxBytes,
                                     leavingUndecided: editedIDs)
    }

    /// Whether a position holds a gap's marker rather than a comment.
    func isGap(at index: Int) -> Bool {
        guard gapCount > 0, let slot = addedSlot(index), case .gap = added[slot] else { return false }
        return true
    }

    private func addedSlot(_ index: Int) -> Int? {
        let slot = index - older.count - opened.commentCount
        return added.indices.contains(slot) ? slot : nil
    }

    /// The user with an id, if known.
    func user(id: String) -> User? { thread.user(id: id) }

    /// The id of the user with a handle, ignoring case.
    func handleID(_ handle: String) -> String? { userIDsByHandle[handle] }

    /// Whether a comment that arrived after opening has this id (the file echoes our own posts).
    func containsAdded(id: String) -> Bool { addedIDs.contains(id) }

    /// The position of a comment that arrived or was sent after opening.
    func indexOfAdded(id: String) -> Int? {
        guard addedIDs.contains(id),
              let last = added.lastIndex(where: { if case .comment(let c) = $0 { c.id == id } else { false } }) else { return nil }
        return older.count + opened.commentCount + last
    }

    /// Adds comments after the newest.
    func append(_ comment: Comment) {
        added.append(.comment(comment))
        addedIDs.insert(comment.id)
    }

    /// Adds one of the reader's comments after all others; it stays below those that arrive
    /// until the source places it.
    func appendWaiting(_ comment: Comment) {
        append(comment)
        waiting.insert(comment.id)
    }

    /// The reader's comments still waiting go under `newID` (the thread knows them by another id now).
    func reassignWaiting(from oldID: String, to newID: String) {
        for slot in added.indices {
            guard case .comment(var comment) = added[slot], waiting.contains(comment.id), comment.author == oldID else { continue }
            comment.author = newID
            added[slot] = .comment(comment)
        }
    }

    /// Comments from the source, in its order: after those it placed before, above ours still
    /// waiting. Returns the position of the first.
    @discardableResult
    func insert(_ comments: [Comment]) -> Int {
        var slot = added.count
        while slot > 0, case .comment(let comment) = added[slot - 1], waiting.contains(comment.id) { slot -= 1 }
        added.insert(contentsOf: comments.map(Added.comment), at: slot)
        addedIDs.formUnion(comments.map(\.id))
        return older.count + opened.commentCount + slot
    }

    /// One of ours reached the thread (the file echoed it, a server confirmed it): it stops
    /// waiting, and moves above the others of ours still waiting, as it landed before them.
    /// Returns the positions it moved from and to, if it moved.
    func place(id: String) -> (from: Int, to: Int)? {
        guard waiting.remove(id) != nil,
              let from = added.lastIndex(where: { if case .comment(let c) = $0 { c.id == id } else { false } }) else { return nil }
        var to = from
        while to > 0, case .comment(let comment) = added[to - 1], waiting.contains(comment.id) { to -= 1 }
        guard to < from else { return nil }
        added.insert(added.remove(at: from), at: to)
        let base = older.count + opened.commentCount
        return (base + from, base + to)
    }

    /// Takes out one of the reader's comments still waiting (discarded, or taken back into the
    /// draft); returns the position it had.
    func removeWaiting(id: String) -> Int? {
        guard waiting.contains(id),
              let slot = added.lastIndex(where: { if case .comment(let c) = $0 { c.id == id } else { false } }) else { return nil }
        waiting.remove(id)
        addedIDs.remove(id)
        added.remove(at: slot)
        return older.count + opened.commentCount + slot
    }

    /// Forgets every comment known and holds the thread as read again from its start (its file
    /// was replaced or cut); ours still waiting stay, last, unless `isInThread` finds them.
    func reopen(thread: CommentThread, opened: CommentStore, hasOlder: Bool, isInThread: (String) -> Bool) {
        let kept: [Comment] = added.compactMap {
            guard case .comment(let comment) = $0, waiting.contains(comment.id), !isInThread(comment.id) else { return nil }
            return comment
        }
        self.thread = thread
        self.opened = opened
        self.hasOlder = hasOlder
        older = SpilledComments()
        added = kept.map(Added.comment)
        addedIDs = Set(kept.map(\.id))
        waiting = addedIDs
        gapCount = 0
        edits = [:]
        recentStoredIDs = nil
        indexHandles()
    }

    /// Marks comments missing after the newest.
    func appendGap(id: String) {
        added.append(.gap(id: id, isLoading: false))
        gapCount += 1
    }

    /// A gap within `margin` positions of `index` not asked for yet, now marked as loading.
    func gapToFill(near index: Int, margin: Int) -> (id: String, index: Int)? {
        guard gapCount > 0 else { return nil }
        let base = older.count + opened.commentCount
        for (slot, entry) in added.enumerated() {
            guard case .gap(let id, false) = entry, abs(base + slot - index) <= margin else { continue }
            added[slot] = .gap(id: id, isLoading: true)
            return (id, base + slot)
        }
        return nil
    }

    /// Puts the comments that were missing at a gap in its place (below it while it stays open);
    /// returns the position and how many positions were removed and inserted there.
    func fillGap(id: String, with comments: [Comment], closed: Bool) -> (index: Int, removed: Int, inserted: Int)? {
        guard let slot = added.firstIndex(where: { if case .gap(id, _) = $0 { true } else { false } }) else { return nil }
        let fresh = comments.filter { !addedIDs.contains($0.id) }
        addedIDs.formUnion(fresh.map(\.id))
        let entries = (closed ? [] : [Added.gap(id: id, isLoading: false)]) + fresh.map(Added.comment)
        added.replaceSubrange(slot...slot, with: entries)
        if closed { gapCount -= 1 }
        return (older.count + opened.commentCount + slot, 1, entries.count)
    }

    /// Adds comments older than the oldest known, oldest first.
    func prepend(_ comments: [Comment], hasMore: Bool) {
        older.prepend(comments)
        hasOlder = hasMore
    }

    /// Shows a comment's new text wherever it is (an edit keeps the comment's id and place).
    func replace(_ edited: Comment) {
        edits[edited.id] = edited
    }

    /// The position of the comment with `id`, looking back from the newest over at most
    /// `limit` positions (a scan: for a reply's target or a source's rare report, not per frame).
    func index(ofComment id: String, limit: Int = 5000) -> Int? {
        if let added = indexOfAdded(id: id) { return added }
        let end = older.count + opened.commentCount
        for index in stride(from: end - 1, through: max(0, end - limit), by: -1) {
            if unedited(at: index).comment?.id == id { return index }
        }
        return nil
    }

    /// How many of the newest stored comments a live edit or deletion may name: theirs are read
    /// once, so a record naming a comment not there costs a look-up, never a scan of the thread
    /// (one older than these shows changed when the thread is next opened).
    static let changeLookupWindow = 5000

    /// The position of the comment a live edit or deletion names: one that arrived after opening,
    /// or among the newest `changeLookupWindow` stored ones; nil for any other.
    func indexForChange(ofComment id: String) -> Int? {
        if let added = indexOfAdded(id: id) { return added }
        if recentStoredIDs == nil {
            var ids: [String: Int] = [:]
            let end = opened.commentCount
            for stored in stride(from: end - 1, through: max(0, end - Self.changeLookupWindow), by: -1) {
                // Of an id written twice, the newest (as a scan from the end finds it).
                if let id = opened.commentID(at: stored), ids[id] == nil { ids[id] = stored }
            }
            recentStoredIDs = ids
        }
        return recentStoredIDs?[id].map { older.count + $0 }
    }

    /// Members who left a room: not offered as mentions until they join again.
    private(set) var departed: Set<String> = []

    /// Members joined or left (see `departed`).
    func membersChanged(joined: [String], left: [String]) {
        departed.subtract(joined)
        departed.formUnion(left)
    }

    /// The thread's title and post changed.
    func retitle(_ title: String, body: String) {
        thread.title = title
        thread.body = body
    }

    /// Adds or replaces users; only their handles are indexed again.
    func add(_ users: [User]) {
        for user in users {
            let old = thread.user(id: user.id)
            thread.add(user)
            userIDsByHandle.replace(old, with: user, in: thread)
        }
    }

    private func indexHandles() {
        userIDsByHandle = HandleIndex(thread.users)
    }
}
