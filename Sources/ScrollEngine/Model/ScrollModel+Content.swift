// Content and viewport changes that keep the reading position.

extension ScrollModel {
    /// Replaces all items (O(n)); the anchor item keeps its place if it is still there.
    public func setItems(_ newItems: [(id: ID, height: Int)]) {
        changeContent { $0 = ItemHeights(newItems) }
    }

    /// Adds items after the last one, O(k log n). At the bottom (and at rest) the view follows.
    public func append(_ newItems: [(id: ID, height: Int)]) {
        changeContent { $0.append(contentsOf: newItems) }
    }

    /// Inserts items (in display order) before the first one, O(k log(n + k)); the view stays on
    /// what it showed.
    public func prepend(_ newItems: [(id: ID, height: Int)]) {
        changeContent { $0.prepend(contentsOf: newItems) }
    }

    /// Changes one item's height (after re-wrapping it), O(log n).
    public func updateHeight(id: ID, height: Int) {
        changeContent { $0.setHeight(height, for: id) }
    }

    /// Changes many items' heights (after a re-wrap at a new width), O(k log n). Those in
    /// `changedBelow` changed only under their first rows (a row added or taken away at their
    /// end): the anchor's row in one of them is kept, not scaled.
    public func updateHeights(_ heights: [(id: ID, height: Int)], changedBelow: Set<ID> = []) {
        let keepsRow = anchor.map { changedBelow.contains($0.id) } ?? false
        changeContent(keepingAnchorRow: keepsRow) { items in
            for entry in heights { items.setHeight(entry.height, for: entry.id) }
        }
    }

    /// Resizes the viewport; the anchor (or the bottom, when following) is kept.
    public func setContainer(rows: Int, columns: Int) {
        changeContent { _ in containerSize = ScrollSize(rows: max(0, rows), columns: max(0, columns)) }
    }

    /// Changes the insets; the anchor (or the bottom, when following) is kept.
    func setContentInsets(_ insets: ScrollInsets) {
        changeContent { _ in contentInsets = insets }
    }

    /// Applies a content change and moves the offset so the reading position stays put:
    /// - at rest at the bottom, the view follows the end (chat behaviour);
    /// - otherwise the anchor item keeps its row on the viewport's top row, its row inside the
    ///   item scaled with the item's height when that changed (re-wrap);
    /// - motions, drags and animation targets move with the content.
    /// The offset change is not a scroll, so it does not restart the debounced end.
    func changeContent(keepingAnchorRow keepsRow: Bool = false, _ change: (inout ItemHeights<ID>) -> Void) {
        perform {
            let follows = phase == .idle && isAtBottom
            let anchor = self.anchor
            let anchorHeight = anchor.flatMap { items.height(of: $0.id) }
            let old = contentOffset
            change(&items)
            var new = old
            if follows {
                new = geometry.maxOffset
            } else if let anchor, let oldHeight = anchorHeight,
                      let start = items.offset(of: anchor.id), let height = items.height(of: anchor.id) {
                new = Double(start) + (keepsRow ? anchor.row : Self.rescale(row: anchor.row, from: oldHeight, to: height))
            }
            contentOffset = clamp(new)
            shiftMotion(by: contentOffset - old)
        }
    }

    /// A row inside an item whose height changed from `old` to `new` rows: whole rows scale
    /// proportionally (the same text stays near the top after re-wrapping); rows in an inset
    /// (negative, or past the item) are kept.
    static func rescale(row: Double, from old: Int, to new: Int) -> Double {
        guard old != new, row >= 0, row < Double(old) else { return row }
        let whole = row.rounded(.down)
        let scaled = (whole * Double(new) / Double(old)).rounded(.down)
        return min(scaled, Double(max(0, new - 1))) + (row - whole)
    }

    /// Moves the motion and gesture with the content by `delta` rows, then re-aims targets.
    private func shiftMotion(by delta: Double) {
        switch gesture {
        case .pointer(var pointer):
            pointer.offsetAtPress += delta
            pointer.tracker.shift(by: delta)
            gesture = .pointer(pointer)
        case .wheel, .none:
            break
        }
        guard let current = motion else { return }
        switch current {
        case .momentum:
            // Decay is memoryless: restarting from here at the current velocity keeps the path,
            // with the new bounds.
            let restarted = makeMomentum(velocity: velocity)
            motion = restarted.endTime > now ? .momentum(restarted) : nil
        case .animation(var animation, let target):
            animation.shift(by: delta)
            if case .offset = target {} else { animation.to = resolve(target) }
            animation.to = clamp(animation.to)
            motion = .animation(animation, target: target)
            contentOffset = clamp(animation.position(at: now))
        }
        if motion == nil {
            velocity = 0
            if phase.isMoving { setPhase(.idle) }
        }
    }
}
