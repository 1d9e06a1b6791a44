import ScrollEngine
import ThreadModel

/// Drawing a frame: every view into one cell buffer. Changes nothing; `didPresent` takes
/// what the frame showed once it is on screen.
extension CommentApp {
    /// Draws the whole screen.
    public func render() -> Frame {
        var buffer = CellBuffer(columns: size.columns, rows: size.rows)
        guard !isTooSmall else {
            NoticeView.drawTooSmall(into: &buffer)
            return Frame(buffer: buffer, cursor: nil)
        }
        let r = regions
        var shown: FeedView.Drawn?
        if overlays.showsHelp {
            // The help page takes the header's and the composer's rows too, so every key fits.
            NoticeView.drawHelp(into: &buffer, rect: CellRect(column: 0, row: 0, width: size.columns, height: r.status))
        } else {
            shown = feed.view(at: wallTime).draw(into: &buffer, rect: r.feed)
            feed.chrome.draw(into: &buffer, rect: feed.chromeRect)
            if let picker = mentions.picker { MentionPickerView(picker: picker).draw(into: &buffer) }
            if overlays.showsScrollEvents { scrollEvents.draw(into: &buffer, rect: r.feed) }
        }
        var cursor: CursorPosition?
        if !overlays.showsHelp {
            let postLinks = HeaderView(thread: comments.thread, commentCount: comments.commentCount, layout: feed.threadHeader,
                       shownRows: feed.scroll.postRowsShown, ownUserID: me.id)
                .draw(into: &buffer, width: size.columns)
            shown?.links.formUnion(postLinks)
            buffer.write(repeating: "─", count: size.columns, column: 0, row: r.composerRule, style: Theme.rule)
            cursor = feed.search.map { SearchBarView(query: $0.query).draw(into: &buffer, rect: r.composer) }
                ?? ComposerView(window: composer.window(handles: comments.handleID)).draw(into: &buffer, rect: r.composer)
        }
        let inspector = overlays.showsHitTest ? hitTestInspector : nil
        StatusBarView(
            handle: me.handle, threadLabel: source.label, phase: phaseUnderPointer.rawValue, position: feed.position,
            newCount: feed.newCount, message: inspector.map { $0.describe(pointer: overlays.pointer) } ?? overlays.message,
            isError: overlays.messageIsError && inspector == nil,
            connection: connection?.description, countIsOpen: comments.hasOlder, typing: typingText
        ).draw(into: &buffer, row: r.status, width: size.columns)
        inspector?.draw(into: &buffer)
        var frame = Frame(buffer: buffer, cursor: cursor)
        frame.composerRows = r.composer.row..<r.composer.maxRow
        frame.scroll = shown == nil ? nil : feed.scrollSinceLastFrame
        frame.reportsPointerMotion = overlays.showsHitTest
        frame.ringsBell = overlays.bellPending
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
        HitTestInspector(regions: regions, picker: overlays.showsHelp ? nil : mentions.picker)
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
