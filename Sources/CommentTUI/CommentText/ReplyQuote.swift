import ThreadModel

/// The line a reply opens with in the feed: who wrote what it answers, and that comment's first
/// line (`↪ Bo: the question`), cut to one row. A click on it, or Alt-J, goes to that comment.
///
/// The target is parsed on its own (its spoilers are numbered apart from the reply's, so the
/// reply's revealed spoilers never reveal one here), and the parsed line is what is cut: a spoiler
/// cut short stays a spoiler. Spoilers in a quote are always masked; the target shows them.
struct ReplyQuote: Equatable {
    /// What the quote shows.
    enum Content: Equatable {
        /// The comment answered, and its author's display name.
        case comment(Comment, author: String)
        /// A note in its place (the comment is being fetched, or could not be).
        case note(String)
    }

    var content: Content

    /// The quote of `target`, written by `author`.
    init(target: Comment, author: String) { content = .comment(target, author: author) }

    /// A note in place of the quote.
    init(note: String) { content = .note(note) }

    /// The share of the row a long name may take before it is cut.
    static let nameShare = 3

    /// The quote as one row of at most `width` columns, drawn as a quoted line.
    func line(width: Int, handles: (String) -> String?) -> TextLayout.Line {
        var quoted = TextRunStyle()
        quoted.quoteDepth = 1
        let styles = TextStyleTable()
        var row = Self.clusters("↪ ", quoted, styles)
        let room = max(4, width - DisplayWidth.width(of: LogicalLines.quoteBar))
        switch content {
        case .note(let note):
            var style = quoted
            style.emphasis = true
            row += Self.clusters(note, style, styles)
        case .comment(let target, let author):
            var strong = quoted
            strong.strong = true
            // One row: a name's line breaks are spaces here; a long name takes a third at most.
            let name = TextFit.cut(author.replacingOccurrences(of: "\n", with: " "), to: max(4, room / Self.nameShare))
            row += Self.clusters(name, strong, styles) + Self.clusters(": ", quoted, styles)
            row += Self.firstLine(of: target, handles: handles).flatMap { Self.quoted($0, styles) }
        }
        let (kept, isCut) = TextFit.kept(row.map(\.cluster), width: room)
        row = Array(row.prefix(kept))
        if isCut { row += Self.clusters(String(TextFit.ellipsis), quoted, styles) }
        var line = LineWrapper.runs(Self.clusters(LogicalLines.quoteBar, TextRunStyle(role: .quoteBar), styles) + row, styles: styles)
        line.runs = line.runs.filter { !$0.clusters.isEmpty }
        return line
    }

    /// The clusters of the target's first line of its own (not a quote it opens with, as an
    /// Alt-R reply does), else of its first line, parsed as the feed shows it.
    private static func firstLine(of target: Comment, handles: (String) -> String?) -> [(cluster: DisplayCluster, style: TextRunStyle)] {
        let runs = CommentMarkup.parseRuns(ShownBody(target.body, limit: FeedLayout.shownBodyBytes).text, handles: handles)
        var first: [(cluster: DisplayCluster, style: TextRunStyle)]?
        var own: [(cluster: DisplayCluster, style: TextRunStyle)]?
        LogicalLines.forEach(in: runs) { line in
            guard own == nil else { return }
            let text = line.clusters.drop { $0.isSpace }.map { (cluster: $0.cluster, style: line.style(of: $0)) }
            guard !text.isEmpty else { return }
            if first == nil { first = text }
            if text.allSatisfy({ $0.style.quoteDepth == 0 }) { own = text }
        }
        return own ?? first ?? []
    }

    /// A cluster of the target as the quote draws it: as quoted text, a spoiler masked (its
    /// text is not kept), nothing to open.
    private static func quoted(_ piece: (cluster: DisplayCluster, style: TextRunStyle), _ styles: TextStyleTable) -> [StyledCluster] {
        var style = piece.style
        style.quoteDepth = 1
        style.link = nil
        style.codeBlock = false
        style.ruby = nil
        guard piece.style.spoiler != nil else { return [StyledCluster(cluster: piece.cluster, styleIndex: styles.index(of: style))] }
        style.spoiler = nil
        style.role = .maskedSpoiler
        let index = styles.index(of: style)
        return (0..<piece.cluster.width).map { _ in StyledCluster(cluster: CommentRenderer.spoilerMask, styleIndex: index) }
    }

    private static func clusters(_ text: String, _ style: TextRunStyle, _ styles: TextStyleTable) -> [StyledCluster] {
        let index = styles.index(of: style)
        return DisplayWidth.clusters(of: text).map { StyledCluster(cluster: $0, styleIndex: index) }
    }
}
