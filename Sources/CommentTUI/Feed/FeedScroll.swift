import ScrollEngine

/// The feed's scroll engine over a window of the thread's comments.
///
/// The model's items are comment positions (and, while the window starts at the first comment,
/// the thread post's collapsing rows as item `postID`). A huge thread never puts all its comments
/// into the model: the window holds a few thousand around the reading position and grows by a
/// batch (the engine's O(k log n) prepend) when the view nears an end, so a step costs the same
/// in a 1,000,000-comment thread as in a small one. Heights start as estimates and are measured
/// (laid out) a screen ahead of the view; the engine keeps the top item in place when a height
/// changes, so measuring never moves what is shown.
final class FeedScroll {
    /// The id of the thread post's rows above the first comment (the header's collapse range).
    static let postID = -1
    /// Comments the window starts with, and the most it keeps before it is cut around the view.
    static let initialWindow = 1000
    static let maximumWindow = 6000
    /// Comments added when the view comes within `edgeMargin` comments of a window end.
    static let batch = 500
    static let edgeMargin = 200
    /// Rows a comment is assumed to take until it is laid out.
    static let estimatedRows = 4
    /// A window this small is laid out whole, so its offsets are exact from the start.
    static let exactWindow = 400

    let model: ScrollModel<Int>
    /// Comments in the thread.
    private(set) var commentCount: Int
    /// The window: comment positions `windowStart..<windowEnd` are the model's items.
    private(set) var windowStart: Int
    private(set) var windowEnd: Int
    /// Rows of the post's collapse range (0: none).
    private(set) var postRows: Int
    /// How the header snaps; applied while the post is in the window.
    var snapMode: SnapMode = .projected {
        didSet { updateSnapping() }
    }
    /// Comments whose model height is their laid-out height.
    private var measured: Set<Int> = []
    /// Comments to lay out again whose text kept its rows (`invalidateBelowText`).
    private var changedBelowText: Set<Int> = []

    init(commentCount: Int, viewportRows: Int, columns: Int, postRows: Int, configuration: ScrollConfiguration, now: ScrollInstant) {
        self.commentCount = commentCount
        self.postRows = postRows
        windowEnd = commentCount
        windowStart = max(0, commentCount - Self.initialWindow)
        model = ScrollModel(containerRows: viewportRows, columns: columns, configuration: configuration, now: now)
        model.setItems(items(windowStart..<windowEnd, withPost: windowStart == 0))
        model.scrollTo(offset: model.offsetBounds.upperBound, animated: false, at: now)
        updateSnapping()
    }

    // MARK: Reading

    /// The comment and row on the viewport's top row; the post's rows have comment `postID`.
    var anchor: FeedAnchor {
        guard let anchor = model.anchor else { return .top }
        return FeedAnchor(comment: anchor.id, row: max(0, Int((anchor.row + 1e-9).rounded(.down))))
    }

    /// The comment and row on the viewport's top row once the current motion ends.
    var restingAnchor: FeedAnchor {
        let row = Int((model.restingOffset + 1e-9).rounded(.down))
        guard let index = model.items.index(containingRow: max(0, row)) else { return anchor }
        return FeedAnchor(comment: model.items.id(at: index), row: row - model.items.offset(ofIndex: index))
    }

    /// The comment and row on the viewport's last row with content (the newest shown), now or,
    /// `resting`, once the current motion ends; nil without items.
    func bottomAnchor(resting: Bool) -> FeedAnchor? {
        let total = model.items.totalHeight
        guard total > 0 else { return nil }
        let top = resting ? Int((model.restingOffset + 1e-9).rounded(.down)) : model.geometry.drawnOffset
        let row = max(0, min(total - 1, top + model.containerSize.rows - 1))
        guard let index = model.items.index(containingRow: row) else { return nil }
        return FeedAnchor(comment: model.items.id(at: index), row: row - model.items.offset(ofIndex: index))
    }

    /// The comment and row drawn on a viewport row, or nil past the end.
    func position(atViewportRow row: Int) -> FeedAnchor? {
        guard let id = model.item(atViewportRow: row), let start = model.items.offset(of: id) else { return nil }
        return FeedAnchor(comment: id, row: model.geometry.drawnOffset + row - start)
    }

    /// Rows of the post's collapse range on screen now (0 when collapsed or out of the window).
    var postRowsShown: Int {
        guard windowStart == 0, postRows > 0 else { return 0 }
        return max(0, min(postRows, postRows - model.geometry.drawnOffset))
    }

    /// How far the header has collapsed: 0 expanded, 1 collapsed.
    var headerProgress: Double {
        guard windowStart == 0, postRows > 0 else { return 1 }
        return HeaderCollapse(distance: Double(postRows)).progress(offset: model.contentOffset)
    }

    /// Where the view is in the whole thread, 0 (top) to 1 (bottom), by comment: estimates in
    /// rows elsewhere in a huge thread never move it.
    var threadFraction: Double {
        guard commentCount > 0 else { return 0 }
        let maxOffset = model.offsetBounds.upperBound
        if windowStart == 0, windowEnd == commentCount {
            return maxOffset > 0 ? min(1, max(0, model.contentOffset / maxOffset)) : 0
        }
        guard let anchor = model.anchor, anchor.id >= 0, let height = model.items.height(of: anchor.id) else { return 0 }
        let within = height > 0 ? min(1, max(0, anchor.row / Double(height))) : 0
        return min(1, (Double(anchor.id) + within) / Double(max(1, commentCount - 1)))
    }

    /// Comments visible, as a share of the thread (the scrollbar thumb's length).
    var visibleShare: Double {
        guard commentCount > 0 else { return 1 }
        let rows = model.containerSize.rows
        let first = position(atViewportRow: 0)?.comment ?? 0
        let last = position(atViewportRow: rows - 1)?.comment ?? (commentCount - 1)
        if windowStart == 0, windowEnd == commentCount {
            let total = Double(model.items.totalHeight)
            return total > 0 ? min(1, Double(rows) / total) : 1
        }
        return min(1, Double(max(1, last - max(0, first) + 1)) / Double(commentCount))
    }

    // MARK: Content changes

    /// Measures what is on screen and a screen around it, then grows or cuts the window.
    /// - Parameter rows: the laid-out height of a comment.
    func prepare(rows: (Int) -> Int) {
        if windowEnd - windowStart <= Self.exactWindow, measured.count < windowEnd - windowStart {
            measure(windowStart..<windowEnd, rows)
        }
        for _ in 0..<4 {
            guard measureAroundView(rows) else { break }
        }
        adjustWindow()
    }

    /// Comments were appended to the thread (read from the file, or sent).
    func commentsAppended(_ count: Int) {
        guard count > 0 else { return }
        let old = commentCount
        commentCount += count
        if windowEnd == old {
            windowEnd = commentCount
            model.append(items(old..<commentCount))
        }
    }

    /// Comments older than the first were loaded (a network source's history): every position
    /// moves up by `count`, and the window and the reading position follow, so what is on screen
    /// stays where it is. The new comments enter the window as the view nears them.
    func commentsPrepended(_ count: Int, at time: ScrollInstant) {
        guard count > 0 else { return }
        let top = anchor
        let heights = measuredHeights(windowStart..<windowEnd)
        measured = Set(measured.map { $0 + count })
        changedBelowText = []
        commentCount += count
        windowStart += count
        windowEnd += count
        var list = items(windowStart..<windowEnd)
        for i in list.indices { if let height = heights[list[i].id - count] { list[i].height = height } }
        model.setItems(list)
        updateSnapping()
        let comment = max(windowStart, top.comment + count)
        model.scrollTo(id: comment, row: top.comment >= 0 ? top.row : 0, alignment: .top, animated: false, at: time)
    }

    /// `removed` comments from `index` were replaced by `inserted` others (a gap filled): later
    /// positions move by the difference, and the comment on the top row (or, if it was among
    /// those replaced, the first after them) keeps its place on screen.
    func commentsReplaced(at index: Int, removed: Int, inserted: Int, at time: ScrollInstant) {
        let delta = inserted - removed
        let after = index + removed
        let top = anchor
        // The comment that keeps its place, and its top's row in the viewport.
        var pinned = (comment: top.comment, viewportRow: -Double(top.row))
        if top.comment >= index, top.comment < after, after < windowEnd, let start = model.items.offset(of: after) {
            pinned = (after, Double(start) - model.contentOffset)
        }
        // Every height as the model has it now (measured or not), so the picture stays the same.
        var heights: [Int: Int] = [:]
        for id in windowStart..<windowEnd { heights[id] = model.items.height(of: id) }
        func moved(_ position: Int) -> Int? { position < index ? position : position >= after ? position + delta : nil }
        measured = Set(measured.compactMap(moved))
        changedBelowText = []
        commentCount += delta
        if windowStart > index { windowStart = max(index, windowStart + delta) }
        if windowEnd >= index { windowEnd = max(windowStart, windowEnd + delta) }
        var list = items(windowStart..<windowEnd, withPost: windowStart == 0)
        var movedHeights: [Int: Int] = [:]
        for (position, height) in heights { if let new = moved(position) { movedHeights[new] = height } }
        for i in list.indices { if let height = movedHeights[list[i].id] { list[i].height = height } }
        model.setItems(list)
        updateSnapping()
        let comment = pinned.comment >= after ? pinned.comment + delta : pinned.comment
        guard comment >= windowStart, comment < windowEnd, let start = model.items.offset(of: comment) else { return }
        model.scrollTo(offset: Double(start) - pinned.viewportRow, animated: false, at: time)
    }

    /// Every comment changed (the thread was read again from its start): the window is made
    /// anew at the newest comments, shown at once.
    func replaceAll(commentCount count: Int, at time: ScrollInstant) {
        commentCount = count
        measured = []
        changedBelowText = []
        windowEnd = count
        windowStart = max(0, count - Self.initialWindow)
        model.setItems(items(windowStart..<windowEnd, withPost: windowStart == 0))
        updateSnapping()
        followBottom(at: time)
    }

    /// Shows the newest row at once (the feed rested there before its content changed).
    func followBottom(at time: ScrollInstant) {
        model.scrollTo(offset: model.offsetBounds.upperBound, animated: false, at: time)
    }

    /// A comment's height changed (expanded, collapsed); it is laid out again before the next frame.
    func invalidate(_ comment: Int) {
        measured.remove(comment)
        changedBelowText.remove(comment)
    }

    /// Only the rows under a comment's text changed (its reactions): laid out again, the reading
    /// position inside it is kept rather than scaled.
    func invalidateBelowText(_ comment: Int) {
        measured.remove(comment)
        changedBelowText.insert(comment)
    }

    /// Every height is stale (a new width, a new divider).
    func invalidateAll() {
        measured.removeAll()
        changedBelowText.removeAll()
    }

    /// The viewport's new size; the reading position is kept.
    func setViewport(rows: Int, columns: Int, postRows newPostRows: Int) {
        model.setContainer(rows: rows, columns: columns)
        guard newPostRows != postRows else { return }
        postRows = newPostRows
        if windowStart == 0 { model.updateHeight(id: Self.postID, height: postRows) }
        updateSnapping()
    }

    // MARK: Moving

    /// Scrolls so `row` of `comment` sits at `alignment`; a comment outside the window is
    /// reached at once (the window moves to it), one inside it is reached animated.
    func scrollTo(comment: Int, row: Int = 0, alignment: ScrollAlignment = .top, animated: Bool, at time: ScrollInstant) {
        guard comment >= 0, comment < commentCount else { return }
        let moved = ensureWindow(contains: comment)
        model.scrollTo(id: comment, row: row, alignment: alignment, animated: animated && !moved, at: time)
    }

    /// Ctrl-Home: to the post, animated.
    func scrollToTop(at time: ScrollInstant) {
        if windowStart > 0, moveWindow(to: 0) {
            // Arrive from a few screens away, so the last stretch still animates.
            model.scrollTo(offset: Double(3 * model.containerSize.rows), animated: false, at: time)
        }
        model.handle(.key(.top), at: time)
    }

    /// Ctrl-End: to the newest comment, animated, following from there.
    func scrollToBottom(at time: ScrollInstant) {
        if windowEnd < commentCount, moveWindow(to: max(0, commentCount - Self.initialWindow)) {
            model.scrollTo(offset: model.offsetBounds.upperBound - Double(3 * model.containerSize.rows), animated: false, at: time)
        }
        model.handle(.key(.bottom), at: time)
    }

    /// Moves to a place in the whole thread (a scrollbar drag), at once.
    func jump(toFraction fraction: Double, at time: ScrollInstant) {
        let f = min(1, max(0, fraction))
        if windowStart == 0, windowEnd == commentCount {
            let bounds = model.offsetBounds
            model.scrollTo(offset: bounds.lowerBound + f * (bounds.upperBound - bounds.lowerBound), animated: false, at: time)
        } else {
            scrollTo(comment: Int(f * Double(max(0, commentCount - 1))), animated: false, at: time)
        }
    }

    // MARK: Window

    /// Items for comments in `range`, estimated; led by the post's rows when `withPost`
    /// (a window that starts at the first comment).
    private func items(_ range: Range<Int>, withPost: Bool = false) -> [(id: Int, height: Int)] {
        var list: [(id: Int, height: Int)] = []
        list.reserveCapacity(range.count + 1)
        if withPost, postRows > 0 { list.append((Self.postID, postRows)) }
        for index in range { list.append((index, Self.estimatedRows)) }
        return list
    }

    private func updateSnapping() {
        let header = windowStart == 0 && postRows > 0
        model.configuration.snapping = header
            ? ScrollSnapping(targets: .headerCollapse(HeaderCollapse(distance: Double(postRows))), mode: snapMode)
            : .none
    }

    /// Lays out the comments from a screen above the view to a screen below it; true if a height changed.
    private func measureAroundView(_ rows: (Int) -> Int) -> Bool {
        let viewport = model.containerSize.rows
        let top = model.geometry.drawnOffset
        guard let first = model.items.index(containingRow: top - viewport),
              let last = model.items.index(containingRow: top + 2 * viewport) else { return false }
        let ids = (first...last).map { model.items.id(at: $0) }.filter { $0 >= 0 }
        guard let low = ids.first, let high = ids.last else { return false }
        return measure(low..<(high + 1), rows)
    }

    /// Lays out the comments in `range` not laid out yet; true if a height changed.
    @discardableResult
    private func measure(_ range: Range<Int>, _ rows: (Int) -> Int) -> Bool {
        var changes: [(id: Int, height: Int)] = []
        for id in range where !measured.contains(id) {
            measured.insert(id)
            let height = rows(id)
            if height != model.items.height(of: id) { changes.append((id, height)) }
        }
        let below = changedBelowText.filter { range.contains($0) }
        changedBelowText.subtract(below)
        guard !changes.isEmpty else { return false }
        model.updateHeights(changes, changedBelow: below)
        return true
    }

    /// Adds a batch when the view nears a window end; cuts the window when it grew too big.
    private func adjustWindow() {
        guard let top = position(atViewportRow: 0)?.comment else { return }
        if windowStart > 0, top - windowStart < Self.edgeMargin {
            let start = max(0, windowStart - Self.batch)
            let added = items(start..<windowStart, withPost: start == 0)
            windowStart = start
            model.prepend(added)
            updateSnapping()
        }
        if windowEnd < commentCount, windowEnd - max(0, top) < Self.edgeMargin + model.containerSize.rows {
            let end = min(commentCount, windowEnd + Self.batch)
            model.append(items(windowEnd..<end))
            windowEnd = end
        }
        if windowEnd - windowStart > Self.maximumWindow { _ = moveWindow(to: max(0, top - Self.maximumWindow / 2)) }
    }

    /// Makes sure a comment is in the window; true if the window had to move.
    private func ensureWindow(contains comment: Int) -> Bool {
        guard comment < windowStart || comment >= windowEnd else { return false }
        return moveWindow(to: max(0, comment - Self.initialWindow / 2))
    }

    /// Replaces the window with `initialWindow` comments from `start`; the comment on screen is kept in place if it stays.
    private func moveWindow(to start: Int) -> Bool {
        let end = min(commentCount, start + Self.initialWindow)
        let start = max(0, min(start, end - Self.initialWindow))
        guard start != windowStart || end != windowEnd else { return false }
        let kept = measuredHeights(start..<end)
        windowStart = start
        windowEnd = end
        var list = items(start..<end, withPost: start == 0)
        for (i, entry) in list.enumerated() { if let h = kept[entry.id] { list[i].height = h } }
        model.setItems(list)
        updateSnapping()
        return true
    }

    private func measuredHeights(_ range: Range<Int>) -> [Int: Int] {
        var heights: [Int: Int] = [:]
        for id in measured where range.contains(id) {
            if let h = model.items.height(of: id) { heights[id] = h }
        }
        measured = measured.filter { range.contains($0) && heights[$0] != nil }
        return heights
    }

    /// Checks the window against the model (tests).
    func _checkInvariants() {
        model._checkInvariants()
        let expected = (windowEnd - windowStart) + (windowStart == 0 && postRows > 0 ? 1 : 0)
        precondition(model.items.count == expected, "window and model disagree: \(model.items.count) items, \(expected) expected")
        precondition(windowStart >= 0 && windowStart <= windowEnd && windowEnd <= commentCount, "window out of range")
    }
}
