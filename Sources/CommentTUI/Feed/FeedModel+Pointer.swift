import ScrollEngine

/// A mouse gesture that started on the feed.
enum FeedGesture {
    /// A press on the comments: a click if it ends without moving, else a drag of the feed.
    case content(column: Int, row: Int)
    /// A press on the scrollbar: the thread follows the pointer.
    case scrollbar
}

/// The mouse on the feed: the wheel, drags of the content and of the scrollbar, clicks.
extension FeedModel {
    /// A mouse event on the feed (the list's rows took theirs first).
    func handle(_ mouse: MouseEvent) -> FeedEffect? {
        let inFeed = rect.contains(column: mouse.column, row: mouse.row)
        switch (mouse.button, mouse.action) {
        case (.wheelUp, _) where inFeed: handle(.wheel(notches: -1))
        case (.wheelDown, _) where inFeed: handle(.wheel(notches: 1))
        case (.left, .press) where inFeed:
            let bar = chromeRect
            if let marker = chrome.newMarkerFrame(in: bar), marker.contains(column: mouse.column, row: mouse.row) {
                scrollToBottom()
            } else if chrome.hasScrollbar, bar.contains(column: mouse.column, row: mouse.row), mouse.column == rect.maxColumn - 1 {
                gesture = .scrollbar
                dragScrollbar(to: mouse.row)
            } else {
                gesture = .content(column: mouse.column, row: mouse.row)
                handle(.press(row: mouse.row - rect.row))
            }
        case (.left, .drag):
            switch gesture {
            case .scrollbar?: dragScrollbar(to: mouse.row)
            case .content?: handle(.drag(row: mouse.row - rect.row))
            case nil: break
            }
        case (.left, .release), (.none, .release):
            let ended = gesture
            gesture = nil
            guard case .content(let column, let row)? = ended else { return nil }
            let still = scroll.model.phase == .tracking
            handle(.release)
            if still { return click(column: column, row: row) }
        default: break
        }
        return nil
    }

    /// Moves the thread to where the pointer is on the scrollbar.
    private func dragScrollbar(to row: Int) {
        let bar = chromeRect
        let fraction = bar.height > 1 ? Double(row - bar.row) / Double(bar.height - 1) : 0
        scroll.jump(toFraction: fraction, at: now)
    }
}
