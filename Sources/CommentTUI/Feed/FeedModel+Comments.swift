import Foundation
import ThreadModel

/// Acting on one comment: selecting it, revealing its spoilers, expanding it, opening its links.
extension FeedModel {
    static let selectFirst = FeedEffect.message("select a comment first (Alt-Up / Alt-Down)")

    /// Selects the previous (-1) or next (+1) comment, or with none selected the newest one
    /// shown, and scrolls it into view.
    func moveSelection(by step: Int) {
        guard comments.count > 0 else { return }
        // With nothing selected either key selects the newest comment shown (the one just read,
        // and `i` of the status bar's `comment i/N`): a reply to it is Alt-Up, Alt-R.
        // A gap marker is no comment: the newest one above it is selected instead.
        var index = selected.map { min(max(0, $0 + step), comments.count - 1) } ?? min(newestShown ?? 0, comments.count - 1)
        if selected == nil { while index > 0, comments.isGap(at: index) { index -= 1 } }
        selected = index
        scrollIntoView(index)
    }

    /// Clears the selection; false when there was none.
    func clearSelection() -> Bool {
        defer { selected = nil }
        return selected != nil
    }

    /// Scrolls so the whole comment shows, or at least its top when it is taller than the feed.
    func scrollIntoView(_ index: Int, animated: Bool = true) {
        let model = scroll.model
        guard let start = model.items.offset(of: index), let height = model.items.height(of: index) else {
            return scroll.scrollTo(comment: index, animated: animated, at: now)
        }
        let top = model.geometry.drawnOffset, rows = model.containerSize.rows
        if start < top || height > rows {
            scroll.scrollTo(comment: index, animated: animated, at: now)
        } else if start + height > top + rows {
            scroll.scrollTo(comment: index, row: height - 1, alignment: .bottom, animated: animated, at: now)
        }
    }

    /// Reveals every spoiler of the selected comment, or hides them again if all are shown.
    func toggleSpoilers() -> FeedEffect? {
        guard let index = selected, let id = layout(index).commentID else { return Self.selectFirst }
        let all = layout(index).spoilers
        guard !all.isEmpty else { return .message("no spoilers in this comment") }
        let before = revealedSpoilers[id] ?? []
        let after = before == all ? [] : all
        revealedSpoilers[id] = after
        for spoiler in all.union(before) where before.contains(spoiler) != after.contains(spoiler) {
            effects.start(.spoiler(spoiler, revealing: after.contains(spoiler)), on: id, at: now)
        }
        return nil
    }

    /// Expands or collapses the selected comment; with none selected, while the header shows
    /// the post, asks for the post whole (the header has room for its first rows only).
    func toggleExpandedSelection() -> FeedEffect? {
        guard let index = selected else { return scroll.postRowsShown > 0 ? .readPost : Self.selectFirst }
        return toggleExpanded(index, stepping: true)
    }

    /// Expands a collapsed comment, or collapses an expanded one (keeping its top in view).
    /// `stepping`: an expanded huge comment shows more of it instead (Alt-E goes collapsed,
    /// expanded, more until all, collapsed; a click on `⌃ show less` collapses at once).
    func toggleExpanded(_ index: Int, stepping: Bool = false) -> FeedEffect? {
        let comment = layout(index)
        guard comment.isCollapsible, let id = comment.commentID else { return .message("this comment is shown whole") }
        if stepping, expandedComments.contains(id), comment.hiddenBytes > 0 { return showMore(index) }
        if expandedComments.remove(id) == nil {
            expandedComments.insert(id)
        } else {
            // Collapsed again: the layout of the body shown is let go.
            shownBodyBytes[id] = nil
        }
        invalidate(index)
        if !expandedComments.contains(id) { scrollIntoView(index) }
        return nil
    }

    /// Lays out more of a huge comment ("show more", "show all"): `FeedLayout.showMoreBytes` more,
    /// so an 8 MiB body takes eight steps the reader asks for, not one that takes the machine.
    func showMore(_ index: Int) -> FeedEffect? {
        let comment = layout(index)
        guard comment.hiddenBytes > 0, let id = comment.commentID else { return nil }
        expandedComments.insert(id)
        shownBodyBytes[id] = FeedLayout.limit(after: shownBodyBytes[id] ?? FeedLayout.shownBodyBytes)
        invalidate(index)
        return nil
    }

    /// Opens the first link of the selected comment that is not hidden in a spoiler.
    func openSelectedLink() -> FeedEffect {
        guard let index = selected else { return Self.selectFirst }
        let comment = layout(index)
        let revealed = comment.commentID.map { revealedSpoilers[$0] ?? [] } ?? []
        // A link inside a hidden spoiler is not one the reader chose.
        guard let url = comment.body.links.first(where: { $0.spoilers.isSubset(of: revealed) })?.url else {
            return .message("no visible link in this comment")
        }
        return .open(url)
    }

    /// The selected comment, to reply to; its selection ends.
    func takeSelectedForReply() -> Comment? {
        guard let index = selected, let comment = comments.comment(at: index) else { return nil }
        selected = nil
        return comment
    }

    /// The header's post line on a screen row, if the header shows one there (the author's
    /// line is the header's first collapsing row, on the row above the feed).
    func postLine(atRow row: Int) -> Int? {
        let line = row - rect.row
        guard line >= 0, line < scroll.postRowsShown - 1, line < threadHeader.bodyLines.count else { return nil }
        return line
    }

    /// What a click on the feed at a screen position hits.
    func hit(column: Int, row: Int) -> (comment: Int, style: TextRunStyle?)? {
        guard rect.contains(column: column, row: row), comments.count > 0,
              let position = scroll.position(atViewportRow: row - rect.row), position.comment >= 0 else { return nil }
        let comment = layout(position.comment)
        guard case .body(let line) = comment.part(atRow: position.row) else { return (position.comment, nil) }
        return (position.comment, comment.body.style(line: line, column: column - rect.column - FeedLayout.bodyIndent))
    }

    /// A click on the feed: reveals a spoiler, opens a link, expands or collapses; selects the
    /// comment. On the header's post rows (drawn over the feed's top): opens a link shown there,
    /// else asks for the post whole.
    func click(column: Int, row: Int) -> FeedEffect? {
        if let line = postLine(atRow: row) {
            let style = threadHeader.style(line: line, column: column - HeaderView.bodyColumn)
            if let url = style?.link, style?.spoiler == nil { return .open(url) }
            return .readPost
        }
        guard let hit = hit(column: column, row: row) else { return nil }
        selected = hit.comment
        // The quote a reply opens with goes to what it answers (a link in it still opens).
        let layout = layout(hit.comment)
        if hit.style?.link == nil, layout.replyQuoteLines > 0, let position = scroll.position(atViewportRow: row - rect.row),
           case .body(let line) = layout.part(atRow: position.row), line < layout.replyQuoteLines,
           let target = layout.comment?.replyTo {
            return .jumpToReplied(target)
        }
        guard let style = hit.style, let id = layout.commentID else { return nil }
        if let spoiler = style.spoiler, revealedSpoilers[id]?.contains(spoiler) != true {
            revealedSpoilers[id, default: []].insert(spoiler)
            effects.start(.spoiler(spoiler, revealing: true), on: id, at: now)
        } else if style.role == .expandMarker {
            return toggleExpanded(hit.comment)
        } else if style.role == .showAllMarker {
            return showMore(hit.comment)
        } else if let url = style.link {
            return .open(url)
        }
        return nil
    }
}
