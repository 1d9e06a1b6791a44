import ScrollEngine
import ThreadModel

/// The @mention list: the users matching the token before the caret, in a scroll view that
/// stands on the composer's top edge over the feed.
///
/// Its content is a transparent inset followed by a title row and the user rows (the source
/// talk's `Color.clear.frame(height: inset)` above a `ForEach`). The inset is the model's top
/// content inset, so with few matches the list is short and sits just above the composer; as
/// the list scrolls the inset scrolls away and the list covers more of the feed. The inset's
/// cells are not the picker's: its hit shape is the frame minus the inset rows still visible.
final class MentionPicker {
    /// The query: what was typed after the `@`, which sits right before the caret.
    private(set) var query: String
    /// The ranked users shown, best first, and how many matched in all.
    private(set) var results: MentionResults
    /// The highlighted user row (index into `results.matches`).
    private(set) var highlighted = 0
    /// The list's scroll model: item -1 is the title row, 0… the users.
    private(set) var model: ScrollModel<Int>
    /// The frame the list may cover: the feed's rows above the composer, less a few at the top.
    private(set) var frame: CellRect
    /// Transparent rows at the top of the content.
    private(set) var insetRows = 0
    /// Columns of the widest handle in the list.
    private(set) var longestHandle = 0
    /// Opened before the thread's index was built: no users yet, the title says it is ranking
    /// (`MentionList` ranks again when the index lands).
    var awaitsIndex = false

    /// The most users one list holds (the title says how many matched in all).
    static let limit = 200
    /// Feed rows the list leaves uncovered at the top (unless the feed has only three rows or fewer).
    static let feedRowsKept = 2

    init(query: String, results: MentionResults, feed: CellRect, now: ScrollInstant) {
        self.query = query
        self.results = results
        frame = Self.frame(over: feed)
        model = ScrollModel(containerRows: 0, columns: 0, now: now)
        rebuild(now: now)
    }

    /// The frame over a feed rect.
    static func frame(over feed: CellRect) -> CellRect {
        // In a small terminal the list takes the whole feed rather than show its title alone.
        let height = max(1, min(feed.height, 3), feed.height - feedRowsKept)
        return CellRect(column: feed.column, row: feed.maxRow - height, width: feed.width, height: height)
    }

    /// Rows the list shows above the composer before it is scrolled: all of a short list, up to
    /// half the frame of a long one.
    var restingRows: Int { min(1 + results.matches.count, max(4, frame.height / 2), frame.height) }

    /// Takes new results for a grown or shrunk query; the list starts over at rest, its highlight
    /// on `keeping`'s row where that user is still listed (results ranked again by a new index
    /// must not move the choice the reader made), else on the first.
    func update(query: String, results: MentionResults, now: ScrollInstant, keeping user: String? = nil) {
        self.query = query
        self.results = results
        highlighted = user.flatMap { id in results.matches.firstIndex { $0.user.id == id } } ?? 0
        rebuild(now: now)
        if highlighted > 0 { scrollHighlightIntoView(at: now) }
    }

    /// Follows a new feed rect (resize, composer growth).
    func relayout(feed: CellRect, now: ScrollInstant) {
        model.advance(to: now)
        let new = Self.frame(over: feed)
        guard new != frame else { return }
        frame = new
        rebuild(now: now)
        scrollHighlightIntoView(at: now)
    }

    private func rebuild(now: ScrollInstant) {
        longestHandle = results.matches.map { DisplayWidth.width(of: $0.user.handle) }.max() ?? 0
        insetRows = frame.height - restingRows
        let items = [(id: -1, height: 1)] + results.matches.indices.map { (id: $0, height: 1) }
        model = ScrollModel(containerRows: frame.height, columns: frame.width, items: items,
                            contentInsets: ScrollInsets(top: insetRows), now: now)
        #if DEBUG
        // Debug builds (the tests) check every rebuild; a release build does no invariant work.
        _checkInvariants()
        #endif
    }

    /// The cells that belong to the list now: its frame minus the visible inset rows.
    var hitShape: HitShape { ScrollingInsetShape.shape(frame: frame, geometry: model.geometry) }

    /// Transparent rows at the top of the frame now.
    var visibleInsetRows: Int {
        ScrollingInsetShape.visibleInsetRows(frameHeight: frame.height, insetRows: insetRows,
                                             contentOffset: model.contentOffset + Double(insetRows))
    }

    /// The item on a screen row: -1 the title, 0… a user; nil in the inset or outside.
    func item(atScreenRow row: Int) -> Int? {
        guard frame.contains(column: frame.column, row: row) else { return nil }
        return model.item(atViewportRow: row - frame.row)
    }

    /// The highlighted user, if any matched.
    var highlightedUser: User? {
        results.matches.indices.contains(highlighted) ? results.matches[highlighted].user : nil
    }

    /// Moves the highlight by rows (Up/Down, PageUp/PageDown) and scrolls it into view. Only
    /// keys move it: the wheel and drags scroll the list under it, so Tab inserts the user the
    /// reader chose, wherever the list was scrolled to.
    func moveHighlight(by step: Int, at now: ScrollInstant) {
        guard !results.matches.isEmpty else { return }
        highlighted = min(max(0, highlighted + step), results.matches.count - 1)
        scrollHighlightIntoView(at: now)
    }

    /// A page of the list: the rows it shows at rest.
    var pageRows: Int { max(1, restingRows - 1) }

    private func scrollHighlightIntoView(at now: ScrollInstant) {
        let top = model.geometry.drawnOffset
        let row = highlighted + 1
        if row < top + 1 {
            // Keep the title row above the first user when going back to it.
            model.scrollTo(id: highlighted == 0 ? -1 : highlighted, alignment: .top, animated: false, at: now)
        } else if row >= top + frame.height {
            model.scrollTo(id: highlighted, alignment: .bottom, animated: false, at: now)
        }
    }

    /// Feeds a wheel notch or key to the list's own scroll model.
    func scroll(_ input: ScrollInput, at now: ScrollInstant) {
        model.handle(input, at: now)
    }

    /// The list's invariants: the highlight is a row, the inset fits the frame.
    func _checkInvariants() {
        precondition(results.matches.isEmpty ? highlighted == 0 : results.matches.indices.contains(highlighted), "highlight out of range")
        precondition(insetRows >= 0 && insetRows <= frame.height, "inset larger than the frame")
        precondition(visibleInsetRows <= insetRows, "more transparent rows than the inset has")
        precondition(hitShape.area == (frame.height - visibleInsetRows) * frame.width, "hit shape does not follow the inset")
    }
}
