import ScrollEngine
import ThreadModel

/// The @mention list's state: the open picker, if any, and the index it ranks the thread's users with.
///
/// Typing `@` at the start of a word opens it; typed characters and Backspace grow and shrink
/// the query; any other change of the draft or the caret (motion, a click, a paste, undo, a
/// kill) means the token is no longer being typed, and closes it.
///
/// The index is built off the keys' path (`MentionIndexBuilder`): once the thread's first frame
/// is shown and whenever its users change, on a thread of its own, and installed when it lands.
/// A key that comes before it waits for it in a thread of at most `waitsForIndexUpTo` users (its
/// build is that short); in a bigger one the list opens at once with the index before (users
/// changed: the newest members show when the new one lands), or with none yet (opened a moment
/// ago) its title says it is ranking; either way it ranks again when the index lands.
final class MentionList {
    /// The open picker, if any.
    private(set) var picker: MentionPicker?
    /// The index the list ranks with: the last that landed, for `indexGeneration`.
    private var ranker: MentionRanker?
    /// The generation of the users `ranker` was built for.
    private(set) var indexGeneration = -1
    /// The generation of the users now: counts their changes.
    private(set) var generation = 0
    /// Comments arrived since who wrote last was put into the index.
    private var recencyIsStale = true
    /// The open list was ranked without the current index: it ranks again when that lands.
    private(set) var pickerAwaitsIndex = false
    /// Builds the index on its own thread.
    let builder = MentionIndexBuilder()
    /// The thread's users and comments.
    private let comments: ThreadComments
    /// The reader's user id (it changes when a replaced thread file knows them by another).
    var me: String {
        didSet { usersChanged() }
    }

    /// A thread of at most this many users waits for its index on a key that needs it (its build
    /// takes about a millisecond a thousand users); a bigger one opens the list without it.
    var waitsForIndexUpTo = 2_000

    /// Who wrote last counts from the latest comments only: a big file's older ones stay undecoded.
    static let recencyWindow = 1000

    /// The app's clock: the list scrolls at its time.
    let clock: AppClock
    private var now: ScrollInstant { clock.now }

    /// Whether an index was asked for yet.
    private var indexRequested = false

    /// A list for the user `me` (never offered to mention themselves) over `comments`' users;
    /// their index is asked for once the thread is shown (`threadShown()`).
    init(me: String, clock: AppClock, comments: ThreadComments) {
        self.me = me
        self.clock = clock
        self.comments = comments
    }

    /// The thread's first frame is on screen: its index starts building, now that the opening's
    /// work is done (it neither competes with the first frame nor adds its peak to the opening's).
    /// A big thread's opening freed much: that goes back to the system first, since the build,
    /// on its own thread, could not reuse it (`HeapTrim`).
    func threadShown() {
        guard !indexRequested else { return }
        if comments.thread.userCount > waitsForIndexUpTo { HeapTrim.giveBackFreePages() }
        requestIndex()
    }

    /// Brings the open list's motion and timers to the clock's time.
    func advance() {
        picker?.model.advance(to: now)
    }

    /// Whether the list is open.
    var isOpen: Bool { picker != nil }

    /// The users changed (or who left, or who reads): a new index is built for them.
    func usersChanged() {
        generation += 1
        requestIndex()
    }

    /// Comments arrived: who wrote last may have changed.
    func commentsAdded() { recencyIsStale = true }

    /// Whether the index installed is for the users now.
    var isIndexCurrent: Bool { ranker != nil && indexGeneration == generation }

    private func requestIndex() {
        indexRequested = true
        builder.build(generation: generation, thread: comments.thread, excluding: comments.departed.union([me]))
    }

    /// The builder's `ready` was readable: the index that landed is installed if it is newer than
    /// the one the list has (while users keep changing, one for users since changed is still
    /// nearer than the one before), and an open list ranks again with it.
    func indexLanded() {
        guard installLanded() else { return }
        // Now, on the loop's idle turn, rather than on the first key.
        updateRecency()
        if let picker { rankAgain(picker) }
    }

    /// Installs the index that landed, if it is newer than the one installed; whether one was.
    @discardableResult
    private func installLanded() -> Bool {
        guard let built = builder.take(), built.generation > indexGeneration else { return false }
        ranker = built.ranker
        indexGeneration = built.generation
        recencyIsStale = true
        return true
    }

    /// Ranks the open list's query again with the index now, the highlight kept on the user it
    /// was on; a press held on the list is let go (its row may hold someone else now).
    private func rankAgain(_ picker: MentionPicker) {
        guard let results = rank(picker.query) else { return }
        picker.update(query: picker.query, results: results, now: now, keeping: picker.highlightedUser?.id)
        picker.awaitsIndex = false
        press = nil
    }

    /// Opens, updates or closes the list after an event that changed the draft (or not).
    func follow(_ edit: DraftEdit?, draftChanged: Bool, draft: ComposerDocument, feed: CellRect) {
        guard let picker else {
            if case .typed("@")? = edit, draft.typedMentionQuery?.isEmpty == true {
                let results = rank("")
                let opened = MentionPicker(query: "", results: results ?? MentionResults(matches: [], total: 0), feed: feed, now: now)
                opened.awaitsIndex = results == nil
                self.picker = opened
            }
            return
        }
        guard draftChanged else { return }
        switch edit {
        // A second `@` is no part of a handle or name (`@@` would list everyone).
        case .typed("@")?: return close()
        case .typed?: break
        case .deletedBackward? where !picker.query.isEmpty: break
        default: return close()
        }
        guard let query = Self.typedQuery(limit: picker.query.count + 1, in: draft) else { return close() }
        guard let results = rank(query) else {
            // No index yet: the query grows, the list says it is ranking.
            return picker.update(query: query, results: MentionResults(matches: [], total: 0), now: now)
        }
        // A name may have spaces, so a space keeps the list open while someone still matches.
        if results.total == 0, query.last?.isWhitespace == true { return close() }
        picker.update(query: query, results: results, now: now)
        picker.awaitsIndex = false
    }

    /// Closes the list.
    func close() {
        picker = nil
        press = nil
        pickerAwaitsIndex = false
    }

    /// The user to insert for Tab or Enter, closing the list; nil (and closed) when none matches.
    /// A list still ranking waits for its index first: the key asks for the best match.
    func takeHighlighted() -> (user: User, replacing: Int)? {
        guard let picker else { return nil }
        // Ranked with no index or one for the users before (a newcomer missing, one who left still
        // offered): the key waits for the index of the users now.
        if picker.awaitsIndex || pickerAwaitsIndex {
            builder.waitForBuilds()
            if installLanded() || isIndexCurrent { rankAgain(picker) }
        }
        self.picker = nil
        guard let user = picker.highlightedUser else { return nil }
        return (user, picker.query.count + 1)
    }

    /// Moves the highlight.
    func move(_ step: MentionListStep) {
        guard let picker else { return }
        switch step {
        case .up: picker.moveHighlight(by: -1, at: now)
        case .down: picker.moveHighlight(by: 1, at: now)
        case .pageUp: picker.moveHighlight(by: -picker.pageRows, at: now)
        case .pageDown: picker.moveHighlight(by: picker.pageRows, at: now)
        }
    }

    /// A press on the list's rows not yet released: where, on which item, and whether it moved.
    private var press: (row: Int, item: Int, moved: Bool)?

    /// Whether a press on the list is held (its drag and release belong to the list).
    var isPressed: Bool { press != nil }

    /// A mouse event on the list's own rows (or the drag and release of a press there): the wheel
    /// and drags scroll it; a press released where it started, without moving, picks a user
    /// (returned with the characters it replaces, and the list closes).
    func handle(_ mouse: MouseEvent) -> (user: User, replacing: Int)? {
        guard let picker else { return nil }
        let row = mouse.row - picker.frame.row
        switch (mouse.button, mouse.action) {
        case (.wheelUp, _): picker.scroll(.wheel(notches: -1), at: now)
        case (.wheelDown, _): picker.scroll(.wheel(notches: 1), at: now)
        case (.left, .press):
            guard let item = picker.item(atScreenRow: mouse.row) else { return nil }
            press = (mouse.row, item, false)
            picker.scroll(.press(row: row), at: now)
        case (.left, .drag):
            guard let held = press else { return nil }
            press?.moved = held.moved || mouse.row != held.row
            picker.scroll(.drag(row: row), at: now)
        case (.left, .release), (.none, .release):
            guard let held = press else { return nil }
            press = nil
            picker.scroll(.release, at: now)
            guard !held.moved, held.item >= 0, picker.item(atScreenRow: mouse.row) == held.item else { return nil }
            self.picker = nil
            return (picker.results.matches[held.item].user, picker.query.count + 1)
        default: break
        }
        return nil
    }

    /// The best users for `query`, with the index now; nil when there is none yet (a big thread
    /// opened a moment ago). Notes whether the list will want ranking again when the index lands.
    private func rank(_ query: String) -> MentionResults? {
        // A key before the first frame (a test, a script): the build starts here.
        if !indexRequested { requestIndex() }
        if !isIndexCurrent { installLanded() }
        if !isIndexCurrent, comments.thread.userCount <= waitsForIndexUpTo {
            builder.waitForBuilds()
            installLanded()
        }
        pickerAwaitsIndex = !isIndexCurrent
        guard ranker != nil else { return nil }
        if recencyIsStale { updateRecency() }
        return ranker?.rank(query, limit: MentionPicker.limit)
    }

    /// Who wrote last, from the latest comments, into the index in place (only the users who
    /// wrote are touched).
    private func updateRecency() {
        let recent = max(0, comments.count - Self.recencyWindow)..<comments.count
        let recency = MentionRanker.recency(of: recent.compactMap { comments.comment(at: $0) })
        ranker?.setRecency(recency)
        recencyIsStale = false
    }

    /// What was typed after the `@` that opened the list, up to the caret: at most `limit`
    /// characters back (a combining mark or a flag's second half typed on its own joins the
    /// character before it, so the query may not grow by one); nil when no such `@` is there
    /// (on one line) any more. Walks back from the caret only, so a keystroke in a huge draft
    /// costs what it costs in a short one.
    private static func typedQuery(limit: Int, in draft: ComposerDocument) -> String? {
        guard draft.selection.isEmpty else { return nil }
        let characters = draft.text.characters
        var index = draft.caret
        var typed: [Character] = []
        for _ in 0...limit {
            guard index > characters.startIndex else { return nil }
            index = characters.index(before: index)
            let character = characters[index]
            if character == "\n" { return nil }
            if character == "@" { return String(typed.reversed()) }
            typed.append(character)
        }
        return nil
    }
}
