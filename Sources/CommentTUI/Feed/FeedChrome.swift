import ScrollEngine

/// What the feed draws over its comments: the scrollbar in its last column and the "N new" marker.
struct FeedChrome {
    var scroll: FeedScroll
    var newCount: Int

    /// Whether the feed has more than a screenful (so a scrollbar shows).
    var hasScrollbar: Bool {
        scroll.windowStart > 0 || scroll.windowEnd < scroll.commentCount
            || scroll.model.items.totalHeight > scroll.model.containerSize.rows
    }

    /// The scrollbar's thumb: its first row and length inside the feed.
    func thumb(rows: Int) -> (start: Int, length: Int) {
        let length = min(rows, max(1, Int((scroll.visibleShare * Double(rows)).rounded())))
        let start = Int((scroll.threadFraction * Double(rows - length)).rounded())
        return (min(max(0, start), rows - length), length)
    }

    /// The "N new" marker's text, when comments arrived below the view.
    var newMarker: String? { newCount > 0 ? " ↓ \(newCount) new " : nil }

    /// Where the "N new" marker sits: its first column and row, and its width.
    func newMarkerFrame(in rect: CellRect) -> CellRect? {
        guard let text = newMarker, rect.height > 0 else { return nil }
        let width = DisplayWidth.width(of: text)
        let column = max(rect.column, rect.column + rect.width - 1 - width)
        return CellRect(column: column, row: rect.maxRow - 1, width: min(width, rect.width - 1), height: 1)
    }

    // Measured once: the bar is drawn on every row of every frame.
    private static let thumbGlyph = DisplayWidth.clusters(of: "┃")[0]
    private static let trackGlyph = DisplayWidth.clusters(of: "│")[0]

    func draw(into buffer: inout CellBuffer, rect: CellRect) {
        guard rect.height > 0, rect.width > 1 else { return }
        if hasScrollbar {
            let column = rect.column + rect.width - 1
            let (start, length) = thumb(rows: rect.height)
            for i in 0..<rect.height {
                let inThumb = i >= start && i < start + length
                buffer.put(inThumb ? Self.thumbGlyph : Self.trackGlyph, column: column, row: rect.row + i,
                           style: inThumb ? Theme.scrollThumb : Theme.scrollTrack)
            }
        }
        if let text = newMarker, let frame = newMarkerFrame(in: rect) {
            buffer.write(text, column: frame.column, row: frame.row, style: Theme.newMarker, limit: frame.column + frame.width)
        }
    }
}
