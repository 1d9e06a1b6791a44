import Foundation

extension CommentApp {
    /// Rows one wheel notch scrolls, until the scroll engine drives the feed.
    static let wheelRows = 3

    /// Applies one input event; returns what the loop must do, if anything.
    /// - Parameter wallClock: the time of the event (the loop's clock); nil keeps `wallTime`.
    public func handle(_ event: InputEvent, wallClock: Date? = nil) -> AppCommand? {
        if let wallClock { wallTime = wallClock }
        switch event {
        case .key(let press): return handleKey(press)
        case .mouse(let mouse): handleMouse(mouse); return nil
        case .paste(let text): draft.insert(text); return nil
        case .focus: return nil
        }
    }

    private func handleKey(_ press: KeyPress) -> AppCommand? {
        let feedPage = max(1, regions.feed.height - 1)
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
        case (.pageUp, []): scrollFeed(by: -feedPage)
        case (.pageDown, []): scrollFeed(by: feedPage)
        case (.up, .ctrl), (.up, .shift): scrollFeed(by: -1)
        case (.down, .ctrl), (.down, .shift): scrollFeed(by: 1)
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
        guard !isTooSmall, regions.feed.contains(column: mouse.column, row: mouse.row) || mouse.isWheel else { return }
        switch (mouse.button, mouse.action) {
        case (.wheelUp, _): scrollFeed(by: -Self.wheelRows)
        case (.wheelDown, _): scrollFeed(by: Self.wheelRows)
        case (.left, .press): clickFeed(column: mouse.column, row: mouse.row)
        default: break
        }
    }
}
