import ScrollEngine
import ThreadModel

/// Drawing a frame: every view into one cell buffer. Changes nothing; `didPresent` takes
/// what the frame showed once it is on screen.
extension CommentApp {
    /// Draws the whole screen; without colours (`colorCount` 0: `NO_COLOR`, a monochrome
    /// terminal) in the theme's attributes alone.
    public func render() -> Frame {
        var frame = drawFrame()
        if colorCount == 0 { frame.buffer.restyleAll(Theme.monochrome) }
        return frame
    }

    private func drawFrame() -> Frame {
        var buffer = CellBuffer(columns: size.columns, rows: size.rows)
        guard !isTooSmall else {
            NoticeView.drawTooSmall(into: &buffer)
            var frame = Frame(buffer: buffer, cursor: nil)
            frame.notification = overlays.notificationPending
            return frame
        }
        let inspector = overlays.showsHitTest ? hitTestInspector : nil
        let message = inspector.map { $0.describe(pointer: overlays.pointer) } ?? overlays.message
        let isError = overlays.messageIsError && inspector == nil
        if let page = overlays.page {
            // A page takes the whole screen, its status line the status bar's row.
            PagerView(pager: page, ownUserID: me.id, message: message, isError: isError).draw(into: &buffer)
            inspector?.draw(into: &buffer)
            var frame = Frame(buffer: buffer, cursor: nil)
            frame.reportsPointerMotion = overlays.showsHitTest
            frame.ringsBell = overlays.bellPending
            frame.notification = overlays.notificationPending
            return frame
        }
        let r = regions
        var shown = feed.view(at: wallTime).draw(into: &buffer, rect: r.feed)
        feed.chrome.draw(into: &buffer, rect: feed.chromeRect)
        if let picker = mentions.picker {
            let view = MentionPickerView(picker: picker)
            view.draw(into: &buffer)
            // Comments under the list were not on screen: they are not read.
            shown.cover(rows: view.coveredRows)
        }
        if overlays.showsScrollEvents { scrollEvents.draw(into: &buffer, rect: r.feed) }
        let postLinks = HeaderView(thread: comments.thread, commentCount: comments.commentCount, layout: feed.threadHeader,
                                   shownRows: feed.scroll.postRowsShown, ownUserID: me.id,
                                   notice: sendingHeld == nil && !source.isEndToEndEncrypted ? nil : "🔒 encrypted", countsLoadedOnly: comments.hasOlder)
            .draw(into: &buffer, width: size.columns)
        shown.links.formUnion(postLinks)
        buffer.write(repeating: "─", count: size.columns, column: 0, row: r.composerRule, style: Theme.rule)
        let cursor = reactionPicker.map { ReactionPickerView(picker: $0).draw(into: &buffer, rect: r.composer) }
            ?? feed.search.map { SearchBarView(query: $0.query).draw(into: &buffer, rect: r.composer) }
            ?? ComposerView(window: composer.window(handles: comments.handleID), placeholder: sendingHeld).draw(into: &buffer, rect: r.composer)
        StatusBarView(
            handle: me.handle, threadLabel: source.label, phase: phaseUnderPointer.rawValue, position: feed.position,
            newCount: feed.newCount, message: message, isError: isError,
            connection: connection, countIsOpen: comments.hasOlder, typing: typingText
        ).draw(into: &buffer, row: r.status, width: size.columns)
        inspector?.draw(into: &buffer)
        var frame = Frame(buffer: buffer, cursor: cursor)
        frame.composerRows = r.composer.row..<r.composer.maxRow
        frame.scroll = feed.scrollSinceLastFrame
        frame.reportsPointerMotion = overlays.showsHitTest
        frame.ringsBell = overlays.bellPending
        frame.notification = overlays.notificationPending
        frame.feedShown = shown
        return frame
    }

    /// The scroll phase of the view under the pointer: the list's over its rows, else the feed's.
    var phaseUnderPointer: ScrollPhase {
        if let picker = mentions.picker, let pointer = overlays.pointer, picker.hitShape.contains(column: pointer.column, row: pointer.row) {
            return picker.model.phase
        }
        return feed.scroll.model.phase
    }

    /// F2's view of who receives a click where.
    var hitTestInspector: HitTestInspector {
        HitTestInspector(regions: regions, picker: overlays.page == nil ? mentions.picker : nil)
    }

    /// The layer a click at a cell reaches, and whether it passes through the list's transparent inset on the way.
    public func hitLayer(column: Int, row: Int) -> (layer: ScreenLayer, throughPickerInset: Bool)? {
        guard !isTooSmall else { return nil }
        return hitTestInspector.hitLayer(column: column, row: row)
    }
}

extension CommentApp {
    /// `marco is typing…`, `marco and ann are typing…`, `3 people are typing…`; nil when nobody is.
    var typingText: String? {
        let names = typingUsers.map { comments.user(id: $0)?.handle ?? $0 }
        switch names.count {
        case 0: return nil
        case 1: return "\(names[0]) is typing…"
        case 2: return "\(names[0]) and \(names[1]) are typing…"
        default: return "\(names.count) people are typing…"
        }
    }
}
