import ThreadModel

/// Showing a search's match: the comment selected, and the line where the query shows brought
/// into view, out of the collapsed part of a long comment if it is there.
extension FeedModel {
    /// Body bytes laid out past a match in a huge comment, so the line it is on is whole.
    static let matchContextBytes = 4 << 10

    /// Selects the match and scrolls the first line where the query shows into view. A match
    /// in the collapsed part of a long comment expands it; one past the part of a huge comment
    /// laid out lays out as far as the match, one "show more" step at most (then says how far
    /// in it is). Returns that note, if any. A match that expanding would not show (on the
    /// author's name, in a link's address) leaves the comment as it was.
    func showMatch(_ index: Int, pattern: SearchPattern) -> FeedEffect? {
        selected = index
        var note: FeedEffect?
        var line = firstMatchLine(index, pattern)
        let shown = layout(index)
        if line == nil, shown.isCollapsible, let id = shown.commentID {
            let wasExpanded = expandedComments.contains(id), wasShownBytes = shownBodyBytes[id]
            if !wasExpanded {
                expandedComments.insert(id)
                invalidate(index)
                line = firstMatchLine(index, pattern)
            }
            if line == nil, layout(index).hiddenBytes > 0, let comment = comments.comment(at: index),
               let offset = pattern.firstMatch(in: comment.body) {
                let limit = shownBodyBytes[id] ?? FeedLayout.shownBodyBytes
                let needed = offset + pattern.query.utf8.count + Self.matchContextBytes
                let step = FeedLayout.limit(after: limit)
                if needed > limit {
                    shownBodyBytes[id] = min(needed, step)
                    invalidate(index)
                    line = firstMatchLine(index, pattern)
                }
                if needed > step {
                    note = .message("search \"\(pattern.query)\": the match is \(ShownBody.describe(bytes: offset)) into this comment; Alt-E shows more")
                }
            }
            if line == nil, note == nil {
                // Nothing of the match came into view: put the comment back as it was.
                if !wasExpanded { expandedComments.remove(id) }
                shownBodyBytes[id] = wasShownBytes
                invalidate(index)
            }
        }
        scrollToMatch(index, line: line)
        return note
    }

    /// The first line of a comment's body as laid out now where the query shows, if any.
    private func firstMatchLine(_ index: Int, _ pattern: SearchPattern) -> Int? {
        let comment = layout(index)
        guard let id = comment.commentID else { return nil }
        let lines = comment.body.lines
        return MatchCells.find(pattern, in: lines, range: 0..<lines.count, revealed: revealedSpoilers[id] ?? []).keys.min()
    }

    /// The whole comment into view when it fits, else its top when the match is on its first
    /// screen, else the match's line in the middle of the feed.
    private func scrollToMatch(_ index: Int, line: Int?) {
        let comment = layout(index)
        let rows = scroll.model.containerSize.rows
        guard let line, comment.rowCount > rows else { return scrollIntoView(index) }
        let row = comment.dividerRows + comment.headerRows + line
        if row < rows { return scrollIntoView(index) }
        scroll.scrollTo(comment: index, row: row, alignment: .center, animated: true, at: now)
    }
}
