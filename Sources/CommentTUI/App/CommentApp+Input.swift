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
        let revision = draftRevision
        draftEdit = nil
        defer { updateMentionPicker(after: draftEdit, draftChanged: draftRevision != revision) }
        switch event {
        case .key(let press):
            if !pendingControlX, handlePickerKey(press) { return nil }
            let command = handleKey(press)
            if pendingExternalEdit {
                pendingExternalEdit = false
                return .editExternally(draft.markdown)
            }
            return command
        case .mouse(let mouse): handleMouse(mouse); return nil
        case .paste(let text):
            pendingControlX = false
            // The document sanitizes it (controls, bidi overrides) as one insertion.
            draft.insert(text)
            return nil
        case .focus, .modeReport: return nil
        }
    }

    private func handleKey(_ press: KeyPress) -> AppCommand? {
        switch (press.key, press.modifiers) {
        case _ where pendingControlX:
            _ = editDraft(press)
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
        case (.function(2), _):
            showsHitTest.toggle()
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
        case (.character("r"), .alt): startReply()
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
            if draft.isEmpty { scrollFeedToTop() } else { draft.moveToLineStart(extending: false) }
        case (.end, []):
            if draft.isEmpty { scrollFeedToBottom() } else { draft.moveToLineEnd(extending: false) }
        default:
            if !editDraft(press) { show("\(press) is not bound (F1 lists the keys)") }
        }
        return nil
    }

    private func handleMouse(_ mouse: MouseEvent) {
        guard !isTooSmall else { return }
        pointer = (mouse.column, mouse.row)
        if mouse.action == .move { return }
        // The list's rows take the wheel and clicks; its transparent inset lets them through.
        if feedGesture == nil, mouse.isWheel || mouse.action == .press, let picker = mentionPicker, !showsHelp,
           picker.hitShape.contains(column: mouse.column, row: mouse.row) {
            return handlePickerMouse(mouse)
        }
        let feed = regions.feed
        let inFeed = feed.contains(column: mouse.column, row: mouse.row)
        switch (mouse.button, mouse.action) {
        case (.wheelUp, _) where inFeed: scrollFeed(.wheel(notches: -1))
        case (.wheelDown, _) where inFeed: scrollFeed(.wheel(notches: 1))
        case (.left, .press):
            if regions.composer.contains(column: mouse.column, row: mouse.row), search == nil {
                return placeCaret(column: mouse.column, row: mouse.row)
            }
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
