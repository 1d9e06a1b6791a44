import Foundation
import ScrollEngine

/// A mouse gesture that started on the feed.
enum FeedGesture {
    /// A press on the comments: a click if it ends without moving, else a drag of the feed.
    case content(column: Int, row: Int)
    /// A press on the scrollbar: the thread follows the pointer.
    case scrollbar
}

extension CommentApp {
    /// Applies one input event; returns what the loop must do, if anything.
    /// - Parameters:
    ///   - wallClock: the time of the event (the loop's clock); nil keeps `wallTime`.
    ///   - time: the event's monotonic time; nil keeps `now`.
    public func handle(_ event: InputEvent, wallClock: Date? = nil, at time: ScrollInstant? = nil) -> AppCommand? {
        if let wallClock { wallTime = wallClock }
        if let time { advance(to: time) }
        if case .key(let press) = event, search != nil, handleSearchKey(press) { return nil }
        switch event {
        case .key(let press): return handleKey(press)
        case .mouse(let mouse): handleMouse(mouse); return nil
        case .paste(let text): draft.insert(text); return nil
        case .focus, .modeReport: return nil
        }
    }

    private func handleKey(_ press: KeyPress) -> AppCommand? {
        switch (press.key, press.modifiers) {
        case (.character("c"), .ctrl), (.function(10), _):
            return .quit
        case (.character("d"), .ctrl):
            if draft.isEmpty { return .quit }
            draft.deleteForward()
        case (.character("z"), .ctrl):
            return .suspend
        case (.character("l"), .ctrl):
            return .redrawAll
        case (.function(12), _) where allowsCrashTest:
            fatalError("crash test requested with F12")
        case (.function(1), _):
            showsHelp.toggle()
        case (.function(3), _):
            showsScrollEvents.toggle()
        case (.character("s"), .ctrl):
            startSearch()
        case (.escape, []):
            if showsHelp { showsHelp = false } else if selectedComment != nil { selectedComment = nil } else { message = nil }
        case (.up, .alt): moveSelection(by: -1)
        case (.down, .alt): moveSelection(by: 1)
        case (.character("s"), .alt): toggleSpoilers()
        case (.character("e"), .alt): toggleExpandedSelection()
        case (.character("o"), .alt): openSelectedLink()
        case (.character("u"), .alt): scrollFeedToFirstUnread()
        case (.enter, []):
            send(now: wallTime)
        case (.enter, .alt), (.character("j"), .ctrl):
            draft.insert("\n")
        case (.pageUp, []): scrollFeed(.key(.pageUp))
        case (.pageDown, []): scrollFeed(.key(.pageDown))
        case (.up, .ctrl), (.up, .shift): scrollFeed(.key(.rowUp))
        case (.down, .ctrl), (.down, .shift): scrollFeed(.key(.rowDown))
        case (.home, .ctrl): scrollFeedToTop()
        case (.end, .ctrl): scrollFeedToBottom()
        case (.home, []):
            if draft.isEmpty { scrollFeedToTop() } else { draft.moveToLineStart() }
        case (.end, []):
            if draft.isEmpty { scrollFeedToBottom() } else { draft.moveToLineEnd() }
        default:
            editDraft(press)
        }
        return nil
    }

    private func editDraft(_ press: KeyPress) {
        switch (press.key, press.modifiers) {
        case (.backspace, []): draft.deleteBackward()
        case (.backspace, .alt), (.character("w"), .ctrl): draft.killWordBackward()
        case (.delete, []): draft.deleteForward()
        case (.left, []), (.character("b"), .ctrl): draft.move(by: -1)
        case (.right, []), (.character("f"), .ctrl): draft.move(by: 1)
        case (.left, .ctrl), (.character("b"), .alt): draft.moveWord(forward: false)
        case (.right, .ctrl), (.character("f"), .alt): draft.moveWord(forward: true)
        case (.character("a"), .ctrl): draft.moveToLineStart()
        case (.character("e"), .ctrl): draft.moveToLineEnd()
        case (.character("k"), .ctrl): draft.killToLineEnd()
        case (.character("u"), .ctrl): draft.killToLineStart()
        case (.character("d"), .alt): draft.killWordForward()
        case (.character("y"), .ctrl): draft.yank()
        case (.tab, []): draft.insert("\t")
        case (.character(let c), []), (.character(let c), .shift):
            draft.insert(String(c))
        default:
            show("\(press) is not bound (F1 lists the keys)")
        }
    }

    private func handleMouse(_ mouse: MouseEvent) {
        guard !isTooSmall else { return }
        let feed = regions.feed
        let inFeed = feed.contains(column: mouse.column, row: mouse.row)
        switch (mouse.button, mouse.action) {
        case (.wheelUp, _) where inFeed: scrollFeed(.wheel(notches: -1))
        case (.wheelDown, _) where inFeed: scrollFeed(.wheel(notches: 1))
        case (.left, .press):
            guard inFeed else { return }
            let chrome = FeedChrome(scroll: feedScroll, newCount: newCount)
            let chromeRect = self.chromeRect
            if let marker = chrome.newMarkerFrame(in: chromeRect), marker.contains(column: mouse.column, row: mouse.row) {
                scrollFeedToBottom()
            } else if chrome.hasScrollbar, chromeRect.contains(column: mouse.column, row: mouse.row),
                      mouse.column == feed.column + feed.width - 1 {
                feedGesture = .scrollbar
                dragScrollbar(to: mouse.row)
            } else {
                feedGesture = .content(column: mouse.column, row: mouse.row)
                scrollFeed(.press(row: mouse.row - feed.row))
            }
        case (.left, .drag):
            switch feedGesture {
            case .scrollbar?: dragScrollbar(to: mouse.row)
            case .content?: scrollFeed(.drag(row: mouse.row - feed.row))
            case nil: break
            }
        case (.left, .release), (.none, .release):
            let gesture = feedGesture
            feedGesture = nil
            guard case .content(let column, let row)? = gesture else { return }
            let still = feedScroll.model.phase == .tracking
            scrollFeed(.release)
            if still { clickFeed(column: column, row: row) }
        default: break
        }
    }

    /// Moves the thread to where the pointer is on the scrollbar.
    private func dragScrollbar(to row: Int) {
        let bar = chromeRect
        let fraction = bar.height > 1 ? Double(row - bar.row) / Double(bar.height - 1) : 0
        feedScroll.jump(toFraction: fraction, at: now)
    }
}
