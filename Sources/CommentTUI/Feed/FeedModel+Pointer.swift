import ScrollEngine

/// A mouse gesture that started on the feed.
enum FeedGesture {
    /// A press on the comments: a click if it ends without moving, else a drag of the feed. A
    /// press that stopped a glide is only that, never a click (as a touch on a phone).
    case content(column: Int, row: Int, stoppedGlide: Bool)
    /// A press on the scrollbar: the thumb follows the pointer, held `grab` rows below its top.
    case scrollbar(grab: Int)
}

/// The mouse on the feed: the wheel, drags of the content and of the scrollbar, clicks.
extension FeedModel {
    /// A mouse event on the feed (the list's rows took theirs first).
    func handle(_ mouse: MouseEvent) -> FeedEffect? {
        let inFeed = rect.contains(column: mouse.column, row: mouse.row)
        switch (mouse.button, mouse.action) {
        // The wheel scrolls the feed wherever it is (over the header, composer and status bar
        // too); only the mention list takes it first, over its rows.
        case (.wheelUp, _): handle(.wheel(notches: -1))
        case (.wheelDown, _): handle(.wheel(notches: 1))
        case (.left, .press) where inFeed:
            let bar = chromeRect
            if let marker = chrome.newMarkerFrame(in: bar), marker.contains(column: mouse.column, row: mouse.row) {
                scrollToBottom()
            } else if chrome.hasScrollbar, bar.contains(column: mouse.column, row: mouse.row), mouse.column == rect.maxColumn - 1 {
                // Held like the content (momentum stops, the header snaps on release), and the
                // thumb keeps its place under the pointer: a press on it alone moves nothing.
                let thumb = chrome.thumb(rows: bar.height)
                let onThumb = (thumb.start..<(thumb.start + thumb.length)).contains(mouse.row - bar.row)
                handle(.press(row: mouse.row - rect.row))
                let grab = onThumb ? mouse.row - bar.row - thumb.start : thumb.length / 2
                gesture = .scrollbar(grab: grab)
                if !onThumb { dragScrollbar(to: mouse.row, grab: grab) }
            } else {
                gesture = .content(column: mouse.column, row: mouse.row, stoppedGlide: isGliding)
                handle(.press(row: mouse.row - rect.row))
            }
        case (.left, .drag):
            switch gesture {
            case .scrollbar(let grab)?: dragScrollbar(to: mouse.row, grab: grab)
            case .content?: handle(.drag(row: mouse.row - rect.row))
            case nil: break
            }
        case (.left, .release), (.none, .release):
            let ended = gesture
            gesture = nil
            guard let ended else { return nil }
            let still = scroll.model.phase == .tracking
            handle(.release)
            if case .content(let column, let row, false) = ended, still { return click(column: column, row: row) }
        default: break
        }
        return nil
    }

    /// Moves the thread so the thumb's top is `grab` rows above the pointer.
    private func dragScrollbar(to row: Int, grab: Int) {
        let bar = chromeRect
        let length = chrome.thumb(rows: bar.height).length
        let travel = bar.height - length
        let fraction = travel > 0 ? Double(row - grab - bar.row) / Double(travel) : 0
        scroll.jump(toFraction: fraction, at: now)
    }
}
