import Foundation
import ThreadModel

/// Acting on one comment: selecting it, revealing its spoilers, expanding it, opening its links.
extension CommentApp {
    /// The feed as drawn now.
    var feedView: FeedView {
        FeedView(
            anchor: feedAnchor, commentCount: commentCount, postRows: feedScroll.postRows, ownUserID: me.id, selected: selectedComment, now: wallTime,
            layout: commentLayout, revealed: { self.revealedSpoilers[$0] ?? [] })
    }

    /// Selects the previous (-1) or next (+1) comment, starting from the one in view, and scrolls it into view.
    func moveSelection(by step: Int) {
        guard commentCount > 0 else { return }
        let start = selectedComment ?? (feedPosition.index - 1 - (step > 0 ? 1 : 0) + (step < 0 ? 1 : 0))
        let index = min(max(0, start + step), commentCount - 1)
        selectedComment = index
        scrollIntoView(index)
    }

    /// Scrolls so the whole comment shows, or at least its top when it is taller than the feed.
    func scrollIntoView(_ index: Int, animated: Bool = true) {
        let model = feedScroll.model
        guard let start = model.items.offset(of: index), let height = model.items.height(of: index) else {
            return feedScroll.scrollTo(comment: index, animated: animated, at: now)
        }
        let top = model.geometry.drawnOffset, rows = model.containerSize.rows
        if start < top || height > rows {
            feedScroll.scrollTo(comment: index, animated: animated, at: now)
        } else if start + height > top + rows {
            feedScroll.scrollTo(comment: index, row: height - 1, alignment: .bottom, animated: animated, at: now)
        }
    }

    /// Reveals every spoiler of the selected comment, or hides them again if all are shown.
    func toggleSpoilers() {
        guard let index = selectedComment, let id = commentLayout(index).commentID else {
            show("select a comment first (Alt-Up / Alt-Down)")
            return
        }
        let all = commentLayout(index).spoilers
        guard !all.isEmpty else { show("no spoilers in this comment"); return }
        revealedSpoilers[id] = revealedSpoilers[id] == all ? [] : all
    }

    /// Expands or collapses the selected comment.
    func toggleExpandedSelection() {
        guard let index = selectedComment else { show("select a comment first (Alt-Up / Alt-Down)"); return }
        toggleExpanded(index)
    }

    /// Expands a collapsed comment, or collapses an expanded one (keeping its top in view).
    func toggleExpanded(_ index: Int) {
        let layout = commentLayout(index)
        guard layout.isCollapsible, let id = layout.commentID else { show("this comment is shown whole"); return }
        if expandedComments.remove(id) == nil { expandedComments.insert(id) }
        feedLayout.invalidate(index)
        feedScroll.invalidate(index)
        feedScroll.prepare(rows: rowCount)
        if !expandedComments.contains(id) { scrollIntoView(index) }
    }

    /// Opens the first link of the selected comment.
    func openSelectedLink() {
        guard let index = selectedComment else { show("select a comment first (Alt-Up / Alt-Down)"); return }
        let layout = commentLayout(index)
        let revealed = layout.commentID.map { revealedSpoilers[$0] ?? [] } ?? []
        // A link inside a hidden spoiler is not one the reader chose.
        guard let url = layout.body.links.first(where: { $0.spoilers.isSubset(of: revealed) })?.url else {
            show("no visible link in this comment")
            return
        }
        open(url)
    }

    /// Opens a link in the browser, or shows it when there is none.
    func open(_ url: String) {
        if let openLink, openLink(url) {
            show("opened \(url)")
        } else {
            show("link: \(url)")
        }
    }

    /// What a click on the feed at a screen position hits.
    func feedHit(column: Int, row: Int) -> (comment: Int, style: TextRunStyle?)? {
        let feed = regions.feed
        guard feed.contains(column: column, row: row), commentCount > 0,
              let position = feedScroll.position(atViewportRow: row - feed.row), position.comment >= 0 else { return nil }
        let layout = commentLayout(position.comment)
        guard case .body(let line) = layout.part(atRow: position.row) else { return (position.comment, nil) }
        return (position.comment, layout.body.style(line: line, column: column - feed.column - FeedLayout.bodyIndent))
    }

    /// A click on the feed: reveals a spoiler, opens a link, expands or collapses; selects the comment.
    func clickFeed(column: Int, row: Int) {
        guard let hit = feedHit(column: column, row: row) else { return }
        selectedComment = hit.comment
        guard let style = hit.style, let id = commentLayout(hit.comment).commentID else { return }
        if let spoiler = style.spoiler, revealedSpoilers[id]?.contains(spoiler) != true {
            revealedSpoilers[id, default: []].insert(spoiler)
        } else if style.role == .expandMarker {
            toggleExpanded(hit.comment)
        } else if let url = style.link {
            open(url)
        }
    }
}
