import ScrollEngine
import ThreadModel

/// The @mention list's state: the open picker, if any, and the ranker over the thread's users.
///
/// Typing `@` at the start of a word opens it; typed characters and Backspace grow and shrink
/// the query; any other change of the draft or the caret (motion, a click, a paste, undo, a
/// kill) means the token is no longer being typed, and closes it.
final class MentionList {
    /// The open picker, if any.
    private(set) var picker: MentionPicker?
    private var ranker: MentionRanker?
    private var recencyIsStale = false
    /// The reader's user id (it changes when a replaced thread file knows them by another).
    var me: String {
        didSet { usersChanged() }
    }

    /// Who wrote last counts from the latest comments only: a big file's older ones stay undecoded.
    static let recencyWindow = 1000

    /// The app's clock: the list scrolls at its time.
    let clock: AppClock
    private var now: ScrollInstant { clock.now }

    /// A list for the user `me` (never offered to mention themselves).
    init(me: String, clock: AppClock) {
        self.me = me
        self.clock = clock
    }

    /// Brings the open list's motion and timers to the clock's time.
    func advance() {
        picker?.model.advance(to: now)
    }

    /// Whether the list is open.
    var isOpen: Bool { picker != nil }

    /// The users changed: the next ranking builds a new ranker.
    func usersChanged() { ranker = nil }

    /// Comments arrived: who wrote last may have changed.
    func commentsAdded() { recencyIsStale = true }

    /// Opens, updates or closes the list after an event that changed the draft (or not).
    func follow(_ edit: DraftEdit?, draftChanged: Bool, draft: ComposerDocument, comments: ThreadComments, feed: CellRect) {
        guard let picker else {
            if case .typed("@")? = edit, draft.typedMentionQuery?.isEmpty == true {
                self.picker = MentionPicker(query: "", results: rank("", comments), feed: feed, now: now)
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
        let results = rank(query, comments)
        // A name may have spaces, so a space keeps the list open while someone still matches.
        if results.total == 0, query.last?.isWhitespace == true { return close() }
        picker.update(query: query, results: results, now: now)
    }

    /// Closes the list.
    func close() {
        picker = nil
        press = nil
    }

    /// The user to insert for Tab or Enter, closing the list; nil (and closed) when none matches.
    func takeHighlighted() -> (user: User, replacing: Int)? {
        guard let picker else { return nil }
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

    private func rank(_ query: String, _ comments: ThreadComments) -> MentionResults {
        rankerUpdated(comments).rank(query, limit: MentionPicker.limit)
    }

    /// The ranker, built when users change and re-ranked by recency when comments arrive.
    private func rankerUpdated(_ comments: ThreadComments) -> MentionRanker {
        if let ranker, !recencyIsStale { return ranker }
        let recent = max(0, comments.count - Self.recencyWindow)..<comments.count
        let recency = MentionRanker.recency(of: recent.compactMap { comments.comment(at: $0) })
        let updated = ranker.map { $0.withRecency(recency) }
            ?? MentionRanker(users: comments.thread.users.filter { $0.id != me && !comments.departed.contains($0.id) }, recency: recency)
        ranker = updated
        recencyIsStale = false
        return updated
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
