/// The Ctrl-K switcher (as Discord's, Slack's and gomuks's): a query line over whatever is on
/// screen and the threads that best match it, ranked as home's filter ranks them. Enter opens
/// the highlighted one, Esc closes. The coordinator creates one on Ctrl-K and drops it when it
/// returns an effect.
final class ThreadSwitcher {
    /// What the switcher asks of the coordinator.
    enum Effect: Equatable {
        /// Show this thread (the switcher is done).
        case open(ThreadKey)
        /// Esc: close the switcher, nothing else.
        case close
    }

    /// Most matches listed (more than any screen shows; typing narrows them).
    static let limit = 50
    /// Most match rows the overlay takes.
    static let maximumRows = 12

    /// What was typed.
    private(set) var query = ""
    /// The threads offered, newest activity first, the thread on screen last (Enter on an
    /// empty query then goes to the thread read before, as Discord's does).
    private(set) var summaries: [ThreadSummary]
    /// The best matches, best first, and how many matched in all.
    private(set) var matches: [ThreadNameRanker.Match] = []
    private(set) var total = 0
    /// The highlighted match (index into `matches`).
    private(set) var highlighted = 0
    /// Where the overlay stands: the query row, then a row a match.
    private(set) var frame = CellRect(column: 0, row: 0, width: 0, height: 0)
    private var screen = CellRect(column: 0, row: 0, width: 0, height: 0)
    private var ranker: ThreadNameRanker
    private let current: ThreadKey?

    /// A switcher over `summaries` (home's, newest first); `current` is the thread on screen.
    init(summaries: [ThreadSummary], current: ThreadKey?) {
        self.current = current
        self.summaries = Self.ordered(summaries, current: current)
        ranker = ThreadNameRanker(self.summaries)
        rank()
    }

    private static func ordered(_ summaries: [ThreadSummary], current: ThreadKey?) -> [ThreadSummary] {
        summaries.filter { $0.key != current } + summaries.filter { $0.key == current }
    }

    /// Takes new summaries while open; the highlight keeps its thread where it still matches.
    func update(summaries new: [ThreadSummary]) {
        let kept = highlightedKey
        summaries = Self.ordered(new, current: current)
        ranker = ThreadNameRanker(summaries)
        rank()
        if let kept, let at = matches.firstIndex(where: { summaries[$0.index].key == kept }), at < shownRows {
            highlighted = at
        }
    }

    /// The highlighted thread, if any matched.
    var highlightedKey: ThreadKey? {
        matches.indices.contains(highlighted) ? summaries[matches[highlighted].index].key : nil
    }

    /// The summary of match `n`.
    func summary(ofMatch n: Int) -> ThreadSummary { summaries[matches[n].index] }

    private func rank() {
        (matches, total) = ranker.rank(query, limit: Self.limit)
        highlighted = 0
        layout()
    }

    // MARK: Place

    /// Puts the overlay over `screen` (the whole terminal, or the part the coordinator gives).
    func place(over screen: CellRect) {
        self.screen = screen
        layout()
    }

    /// Match rows on screen now.
    var shownRows: Int { max(0, frame.height - 1) }

    /// Centred, two columns clear on each side (30 to 64 columns, never more than the screen), a row
    /// below the top; as tall as its matches (at least a row to say none matched).
    private func layout() {
        let width = min(screen.width, max(30, min(64, screen.width - 4)))
        let top = screen.height > 8 ? 1 : 0
        let rows = min(Self.maximumRows, max(1, matches.count), max(0, screen.height - top - 1))
        frame = CellRect(column: screen.column + (screen.width - width) / 2, row: screen.row + top,
                         width: width, height: screen.height > 0 ? 1 + rows : 0)
        highlighted = min(highlighted, max(0, min(matches.count, shownRows) - 1))
    }

    // MARK: Input

    /// A key while the switcher is open: whether it took it, and what it asks. Keys it does not
    /// bind (Ctrl-C, F1) are the coordinator's.
    func handle(_ press: KeyPress) -> (taken: Bool, effect: Effect?) {
        for action in KeyMap.actions(for: press, in: [.switcher]) {
            guard case .switcher(let command) = action else { continue }
            return (true, perform(command, typed: press.character))
        }
        return (false, nil)
    }

    /// Carries out one of the switcher's commands.
    func perform(_ command: HomeCommand, typed: Character? = nil) -> Effect? {
        let last = max(0, min(matches.count, shownRows) - 1)
        switch command {
        case .up: highlighted = max(0, highlighted - 1)
        case .down: highlighted = min(last, highlighted + 1)
        case .pageUp, .first: highlighted = 0
        case .pageDown, .last: highlighted = last
        case .open: return highlightedKey.map { .open($0) }
        case .cancel: return .close
        case .deleteFilterCharacter: edit { _ = $0.popLast() }
        case .deleteFilterWord: edit(FeedSearch.deleteLastWord)
        case .clearFilter: edit { $0.removeAll() }
        case .type:
            guard let typed else { return nil }
            edit { $0.append(typed) }
        case .acceptInvite, .declineInvite, .leave: break
        }
        return nil
    }

    /// A paste goes into the query, on one line and without controls.
    func paste(_ text: String) {
        let line = HomeList.oneLine(text)
        edit { $0 += line }
    }

    private func edit(_ change: (inout String) -> Void) {
        var edited = query
        change(&edited)
        guard edited != query else { return }
        query = edited
        rank()
    }

    /// The mouse: a click on a match opens it, the wheel moves the highlight; a click outside
    /// the overlay closes it (as a click outside a menu does).
    func handle(_ mouse: MouseEvent) -> Effect? {
        let inside = frame.contains(column: mouse.column, row: mouse.row)
        switch (mouse.button, mouse.action) {
        case (.wheelUp, _): _ = perform(.up)
        case (.wheelDown, _): _ = perform(.down)
        case (.left, .release):
            let n = mouse.row - frame.row - 1
            guard inside else { return .close }
            guard n >= 0, n < min(matches.count, shownRows) else { return nil }
            highlighted = n
            return highlightedKey.map { .open($0) }
        default: break
        }
        return nil
    }
}
