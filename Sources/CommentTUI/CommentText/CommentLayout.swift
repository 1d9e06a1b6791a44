import ThreadModel

/// One comment as the feed shows it: header rows, body lines (collapsed or not), a gap row.
struct CommentLayout {
    /// What a row of the comment shows.
    enum Part: Equatable {
        /// The "new" divider above the first unread comment.
        case divider
        case header(Int)
        case body(Int)
        /// The reactions under the body (`ReactionRow`).
        case reactions
        /// A post's summary under its root (`PostSummaryLine`).
        case postSummary
        case gap
    }

    /// The comment, or the row in its place (a gap, an encrypted event, a line that did not read).
    let item: FeedItem
    let header: CommentHeaderLayout?
    /// The body as shown: cut to `FeedLayout.collapsedRows` with a marker, or whole.
    let body: TextLayout
    /// Whether the full body is long enough to collapse (so it has a marker either way).
    let isCollapsible: Bool
    /// Body bytes not laid out (behind "show more"; `ShownBody`).
    let hiddenBytes: Int
    /// Every spoiler of the whole body, the collapsed part included (Alt-S reveals them all).
    let spoilers: Set<Int>
    /// Whether the "new" divider sits above the comment (it is the first unread one).
    var hasDivider = false
    /// Body lines at the top that quote the comment replied to (a click there goes to it).
    var replyQuoteLines = 0

    /// The comment's reactions, an annotation under its text: set and changed apart from the
    /// text's layout (`FeedLayout.reannotate`), which a reaction never makes again.
    var reactions: ReactionRow?

    /// The summary of the post this comment is the root of, an annotation as reactions are.
    var postSummary: PostSummaryLine?

    var rowCount: Int { dividerRows + headerRows + body.lines.count + reactionRows + postSummaryRows + 1 }
    var reactionRows: Int { reactions == nil ? 0 : 1 }
    var postSummaryRows: Int { postSummary == nil ? 0 : 1 }
    var headerRows: Int { header?.rows.count ?? 0 }
    var dividerRows: Int { hasDivider ? 1 : 0 }

    /// The part a row (0 = first) of the comment shows.
    func part(atRow row: Int) -> Part {
        if row < dividerRows { return .divider }
        let row = row - dividerRows
        if row < headerRows { return .header(row) }
        let line = row - headerRows
        if line < body.lines.count { return .body(line) }
        if line < body.lines.count + reactionRows { return .reactions }
        return line < body.lines.count + reactionRows + postSummaryRows ? .postSummary : .gap
    }

    /// The comment (or the one an encrypted row stands for), if the position holds one.
    var comment: Comment? { item.comment }

    /// The comment's id, if the position holds one.
    var commentID: String? { item.comment?.id }
}
