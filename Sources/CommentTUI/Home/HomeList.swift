import Foundation
import ScrollEngine
import ThreadModel

/// Home: every thread the client has, newest activity first, with a selection, a filter typed
/// over it and a scroll view (the feed's engine: wheel, drags, momentum, phases).
///
/// A feature model like `FeedModel` and `MentionList`: it never holds the app. The coordinator
/// feeds it summaries (`replaceAll`, `update`, `remove`), places it (`place(in:)`), hands it
/// keys, the mouse and pastes at the shared clock's time, and carries out the `HomeEffect`s it
/// returns. The selection is a thread, not a row: it follows its key when rows move.
final class HomeList {
    /// Rows one thread takes: its name line and its preview line.
    static let rowHeight = 2

    /// The app's clock: the list scrolls at its time.
    let clock: AppClock
    var now: ScrollInstant { clock.now }

    /// Every thread, newest activity first (none last; ties by name).
    private(set) var summaries: [ThreadSummary] = []
    private var positions: [ThreadKey: Int] = [:]
    /// Rooms of the accounts not listed yet, while only their first windows came (their counts
    /// are coming too): the header says so. Nil when every list came whole.
    var roomsComing: Int?
    /// What was typed to filter the list.
    private(set) var filter = ""
    /// The rows shown: every thread in order with no filter, else the matches, best first.
    private(set) var rows: [ThreadNameRanker.Match] = []
    private var rowOfKey: [ThreadKey: Int] = [:]
    /// The selected thread (nil only when no row is shown).
    private(set) var selectedKey: ThreadKey?
    /// Whether the reader put the selection where it is (keys, a click, scrolling, a jump).
    /// Until then it stays on the first row as threads arrive: at a start the demo is listed
    /// first and the account's newer rooms come after it, and the newest must show.
    private var selectionChosen = false
    /// A question waiting for y or n (leave, decline an invite); set by the keys (`+Input`).
    var question: HomeQuestion?
    /// Where the list is on screen: the header row, then the rows.
    private(set) var frame = CellRect(column: 0, row: 0, width: 0, height: 0)
    /// The rows' scroll model: item n is row n, `rowHeight` rows tall.
    private(set) var model: ScrollModel<Int>
    /// Each preview parsed once, as it will be drawn.
    let previews = ThreadPreviewCache()
    private var ranker: ThreadNameRanker?
    /// A press on the rows not yet released: where, on which row, whether it moved, and
    /// whether it stopped a glide (then it is no click, as a touch on a phone).
    var press: (row: Int, item: Int?, moved: Bool, stoppedGlide: Bool)?

    init(clock: AppClock) {
        self.clock = clock
        model = ScrollModel(containerRows: 0, columns: 0, now: clock.now)
    }

    // MARK: Summaries

    /// Takes a new list of every thread (the home cache at start, a sync's catch-up).
    func replaceAll(_ new: [ThreadSummary]) {
        var unique: [ThreadKey: ThreadSummary] = [:]
        for summary in new { unique[summary.key] = summary }
        summaries = Array(unique.values)
        resort()
    }

    /// Takes one thread's new summary (or a new thread); it moves to its place by activity.
    func update(_ summary: ThreadSummary) {
        if let at = positions[summary.key] { summaries[at] = summary } else { summaries.append(summary) }
        resort()
    }

    /// Forgets a thread (left, declined).
    func remove(_ key: ThreadKey) {
        guard let at = positions[key] else { return }
        summaries.remove(at: at)
        resort()
    }

    /// The summary of a thread, if listed.
    func summary(for key: ThreadKey) -> ThreadSummary? { positions[key].map { summaries[$0] } }

    /// The selected thread's summary.
    var selected: ThreadSummary? { selectedKey.flatMap(summary(for:)) }

    /// The row the selection is on.
    var selectedRow: Int? { selectedKey.flatMap { rowOfKey[$0] } }

    /// The summary shown on row `row`.
    func summary(atRow row: Int) -> ThreadSummary { summaries[rows[row].index] }

    /// Newest activity first, none last, ties by name (folded, then as written, then the key).
    static func inOrder(_ a: ThreadSummary, _ b: ThreadSummary) -> Bool {
        switch (a.activity, b.activity) {
        case let (x?, y?) where x != y: return x > y
        case (.some, nil): return true
        case (nil, .some): return false
        default: break
        }
        let fa = a.name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        let fb = b.name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        if fa != fb { return fa < fb }
        if a.name != b.name { return a.name < b.name }
        return a.key.description < b.key.description
    }

    private func resort() {
        let wasVisible = selectedRow.map(isFullyVisible) ?? false
        let oldRow = selectedRow
        summaries = Self.grouped(summaries)
        positions = Dictionary(uniqueKeysWithValues: summaries.enumerated().map { ($1.key, $0) })
        ranker = nil
        previews.keep(only: Set(positions.keys))
        if let question, positions[question.key] == nil { self.question = nil }
        if !selectionChosen { selectedKey = nil }
        rebuildRows(selectionFallback: selectionChosen ? oldRow : 0)
        // The selection moved with its thread; if it was on screen it stays there.
        if wasVisible, model.phase == .idle { scrollSelectionIntoView() }
    }

    /// Rebuilds the shown rows; the selection keeps its thread, else takes the row it was on.
    private func rebuildRows(selectionFallback: Int?) {
        if filter.isEmpty {
            rows = summaries.indices.map { ThreadNameRanker.Match(index: $0, highlights: []) }
        } else {
            let ranker = self.ranker ?? ThreadNameRanker(summaries)
            self.ranker = ranker
            rows = ranker.rank(filter, limit: summaries.count).matches
        }
        rowOfKey = Dictionary(uniqueKeysWithValues: rows.enumerated().map { (summaries[$1.index].key, $0) })
        model.setItems(rows.indices.map { (id: $0, height: Self.rowHeight) })
        if selectedKey.flatMap({ rowOfKey[$0] }) == nil {
            let row = min(selectionFallback ?? 0, rows.count - 1)
            selectedKey = row >= 0 ? summaries[rows[row].index].key : nil
        }
    }

    // MARK: Place and time

    /// The rows' part of the frame (below the header row).
    var listRect: CellRect {
        CellRect(column: frame.column, row: frame.row + 1, width: frame.width, height: max(0, frame.height - 1))
    }

    /// Puts the list on screen at `rect` (a resize, the coordinator's layout).
    func place(in rect: CellRect) {
        guard rect != frame else { return }
        frame = rect
        model.advance(to: now)
        model.setContainer(rows: listRect.height, columns: listRect.width)
        if model.phase == .idle { scrollSelectionIntoView() }
    }

    /// Brings the list's motion and timers to the clock's time; the selection stays on screen.
    func advance() {
        let before = model.geometry.drawnOffset
        model.advance(to: now)
        if model.geometry.drawnOffset != before { keepSelectionOnScreen() }
    }

    /// When the list next needs `advance()`: now while it moves, else its next timer, else nil.
    var nextDeadline: ScrollInstant? { model.nextDeadline }

    /// The row shown on a screen row, nil outside the rows.
    func row(atScreenRow screenRow: Int) -> Int? {
        let list = listRect
        guard screenRow >= list.row, screenRow < list.maxRow else { return nil }
        return model.item(atViewportRow: screenRow - list.row)
    }

    // MARK: Selection

    /// Selects a thread (the coordinator's, after Alt-A from home) and scrolls it into view.
    func select(_ key: ThreadKey) {
        guard rowOfKey[key] != nil else { return }
        selectedKey = key
        selectionChosen = true
        scrollSelectionIntoView()
    }

    /// Moves the selection by `step` rows (clamped) and scrolls it into view.
    func moveSelection(by step: Int) {
        guard !rows.isEmpty else { return }
        let row = min(max(0, (selectedRow ?? 0) + step), rows.count - 1)
        selectedKey = summary(atRow: row).key
        selectionChosen = true
        scrollSelectionIntoView()
    }

    /// Rows a page moves: the rows whole on screen, less one for context.
    var pageRows: Int { max(1, listRect.height / Self.rowHeight - 1) }

    private func isFullyVisible(_ row: Int) -> Bool {
        let top = model.geometry.drawnOffset
        return row * Self.rowHeight >= top && (row + 1) * Self.rowHeight <= top + listRect.height
    }

    /// Scrolls (at once) just enough that the selected row shows whole.
    func scrollSelectionIntoView() {
        guard let row = selectedRow, listRect.height > 0 else { return }
        let top = model.geometry.drawnOffset
        if row * Self.rowHeight < top || listRect.height < Self.rowHeight {
            model.scrollTo(id: row, alignment: .top, animated: false, at: now)
        } else if (row + 1) * Self.rowHeight > top + listRect.height {
            model.scrollTo(id: row, row: Self.rowHeight - 1, alignment: .bottom, animated: false, at: now)
        }
    }

    /// After the reader scrolled: a selection scrolled off screen moves to the nearest row on it.
    func keepSelectionOnScreen() {
        guard let row = selectedRow, !rows.isEmpty else { return }
        selectionChosen = true
        let top = model.geometry.drawnOffset
        let h = Self.rowHeight
        let first = min(rows.count - 1, max(0, (top + h - 1) / h))
        let last = max(first, min(rows.count - 1, (top + listRect.height) / h - 1))
        let kept = min(max(row, first), last)
        if kept != row { selectedKey = summary(atRow: kept).key }
    }

    // MARK: Jumps

    /// The next thread after `key` in home's order (every thread, newest first; the filter
    /// aside) with comments not read or an invite, cycling to the top; nil when no other has.
    func nextUnread(after key: ThreadKey?) -> ThreadKey? {
        next(after: key) { $0.unread > 0 || $0.invite != nil }
    }

    /// The next thread after `key` with a mention or highlight for the reader, cycling.
    func nextMention(after key: ThreadKey?) -> ThreadKey? {
        next(after: key) { $0.highlights > 0 }
    }

    private func next(after key: ThreadKey?, where wanted: (ThreadSummary) -> Bool) -> ThreadKey? {
        guard !summaries.isEmpty else { return nil }
        let start = key.flatMap { positions[$0] }
        let first = start.map { $0 + 1 } ?? 0
        for step in 0..<summaries.count {
            let at = (first + step) % summaries.count
            if at == start { continue }
            if wanted(summaries[at]) { return summaries[at].key }
        }
        return nil
    }

    // MARK: Filter

    /// Changes the filter; the best match is selected and the list starts at its top.
    func editFilter(_ change: (inout String) -> Void) {
        var edited = filter
        change(&edited)
        guard edited != filter else { return }
        filter = edited
        selectedKey = nil
        rebuildRows(selectionFallback: 0)
        model.scrollTo(offset: model.offsetBounds.lowerBound, animated: false, at: now)
    }

    /// A paste goes into the filter, on one line and without controls.
    func paste(_ text: String) {
        let line = Self.oneLine(text)
        editFilter { $0 += line }
    }

    /// Pasted text as a filter takes it: line breaks and tabs as spaces, C0 controls and DEL
    /// left out (the view shows what remains through the width discipline anyway).
    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 }.filter { !($0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false) })
    }
}

/// A question home waits on an answer to: y (or Enter) does it, any other key does not.
struct HomeQuestion: Equatable {
    enum Kind: Equatable { case leave, decline }
    var kind: Kind
    var key: ThreadKey
    var name: String

    /// `Leave Room? y/n`, `Decline the invite to Room? y/n`.
    var prompt: String {
        switch kind {
        case .leave: "Leave \(name)? y/n"
        case .decline: "Decline the invite to \(name)? y/n"
        }
    }
}
