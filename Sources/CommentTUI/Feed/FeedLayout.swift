import Foundation
import ThreadModel

/// Comments laid out at one width, on demand, and cached by position.
final class FeedLayout {
    let width: Int
    private var cache: [Int: CommentLayout] = [:]
    /// Huge comments shown past their first part, by comment id: each "show more" lays out
    /// only the bytes it adds (`ShownParts`); let go when the comment is collapsed again.
    private var shownParts: [String: ShownParts] = [:]
    /// Body bytes parsed and laid out so far: the work the layouts cost (tests count it).
    private(set) var bytesLaidOut = 0

    /// Column 0 marks the selected comment; headers start after it.
    static let gutter = 1
    /// Bodies are indented under their header.
    static let bodyIndent = 3
    /// A body longer than this many rows is collapsed until expanded.
    static let collapsedRows = 12
    /// Body bytes parsed and laid out unless the reader asks for all (`ShownBody`): a screenful
    /// many times over, and a bound on the time and memory one huge comment costs.
    static let shownBodyBytes = 64 << 10
    /// Body bytes one "show more" adds: what `post` writes whole (1 MiB), so a comment of the
    /// thread's own writers shows all in one step, and memory grows a step at a time, as asked.
    static let showMoreBytes = ThreadFileLimits.bodyBytes
    /// Body bytes `render` prints of one body (comment or post): what `post` writes whole. Laying
    /// text out costs over a hundred bytes per byte, so a longer body (another writer's, up to
    /// the 8 MiB line limit) is printed to there, and a last line counts the rest.
    static let printedBodyBytes = showMoreBytes
    /// Laid-out comments kept; beyond this the cache starts afresh (a screenful is re-laid cheaply).
    static let cacheLimit = 4096

    init(width: Int) { self.width = width }

    /// Columns a body is laid out in.
    var bodyWidth: Int { max(4, width - Self.bodyIndent - 1) }

    /// What the layout of a comment needs from the app.
    struct Source {
        /// What a position holds.
        var item: (Int) -> FeedItem
        var user: (String) -> User?
        /// The user id an `@handle` names, for mentions.
        var handleID: (String) -> String?
        var isExpanded: (String) -> Bool
        /// Body bytes the reader asked to see of a huge comment ("show more"), if more than `shownBodyBytes`.
        var shownBytes: (String) -> Int? = { _ in nil }
        /// Whether the comment at a position is the first unread one.
        var startsUnread: (Int) -> Bool = { _ in false }
        /// For a reply, the quote of what it replies to.
        var replyQuote: (Comment) -> ReplyQuote? = { _ in nil }
        /// The reactions to a comment, by id (an annotation: drawn under the text, not in it).
        var reactions: (String) -> [ReactionCount] = { _ in [] }
        /// The summary of the post a comment is the root of, by id (an annotation too).
        var postSummary: (String) -> PostSummary? = { _ in nil }
        /// Whether a sender's cryptographic identity changed since first seen (their header says so).
        var identityChanged: (String) -> Bool = { _ in false }
        /// How far a sender is trusted (`ThreadSource.senderTrust`); nil: nothing to show.
        var senderTrust: (String) -> SenderTrust? = { _ in nil }
        /// Laid out for print (`render`): every body whole (to `printedBodyBytes`), with no
        /// marker to click, as nothing can be clicked on paper.
        var printsWhole = false
    }

    /// The body bytes shown after one more "show more" from `limit`.
    static func limit(after limit: Int) -> Int { limit + showMoreBytes }

    /// The layout of the comment at `index`.
    func layout(of index: Int, _ source: Source) -> CommentLayout {
        if let layout = cache[index] { return layout }
        var layout = makeLayout(source.item(index), source)
        layout.hasDivider = source.startsUnread(index)
        layout.reactions = reactionRow(of: layout, source)
        layout.postSummary = layout.commentID.flatMap(source.postSummary).map(PostSummaryLine.init)
        if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
        cache[index] = layout
        return layout
    }

    /// Draws a comment's reactions anew, keeping its text's layout (only the reactions changed).
    func reannotate(_ index: Int, _ source: Source) {
        guard let layout = cache[index] else { return }
        cache[index]?.reactions = reactionRow(of: layout, source)
        cache[index]?.postSummary = layout.commentID.flatMap(source.postSummary).map(PostSummaryLine.init)
    }

    /// The row of a comment's reactions at this width, if it has any.
    /// A deleted comment has none (a file's reactions to it may stand; `render` drops them too).
    private func reactionRow(of layout: CommentLayout, _ source: Source) -> ReactionRow? {
        guard let comment = layout.comment, !comment.isDeleted else { return nil }
        let id = comment.id
        return ReactionRow(source.reactions(id), width: bodyWidth)
    }

    /// Forgets a comment's layout (after it was expanded or collapsed).
    func invalidate(_ index: Int) { cache[index] = nil }

    /// Forgets every layout (positions moved, a comment changed, users or mentions changed).
    /// The parts of huge comments shown past their first part (`ShownParts`) are kept unless
    /// what they were laid out with changed (who a `@handle` names, how wide a cluster is):
    /// they are kept by comment id and start afresh when their comment changed, and laying
    /// one out again costs megabytes.
    func invalidateAll(keepingShownParts: Bool = true) {
        cache.removeAll(keepingCapacity: true)
        if !keepingShownParts { shownParts.removeAll() }
    }

    /// The body laid out to `limit` bytes, and the bytes left out: past the first part, from the
    /// parts laid out before and the bytes this step adds (`ShownParts`).
    private func bodyLayout(of comment: Comment, limit: Int, _ source: Source) -> (TextLayout, Int) {
        guard !source.printsWhole, limit > Self.shownBodyBytes else {
            shownParts[comment.id] = nil
            let shown = ShownBody(comment.body, limit: limit)
            bytesLaidOut += shown.text.utf8.count
            return (TextLayout(CommentMarkup.parseRuns(shown.text, handles: source.handleID), width: bodyWidth), shown.hiddenBytes)
        }
        // Taken out while it grows, so its lines are not copied; afresh after an edit, or
        // when less is asked than was laid out (a search put the comment back).
        var parts = ShownParts(of: comment, width: bodyWidth)
        if let kept = shownParts.removeValue(forKey: comment.id), kept.isCurrent(for: comment, width: bodyWidth), kept.limit <= limit {
            parts = kept
        }
        // Through the limits "show more" steps through, so the parts are cut where they would
        // have been a step at a time (what shows depends on the body, width and limit only).
        var step = Self.shownBodyBytes
        while Self.limit(after: step) < limit {
            step = Self.limit(after: step)
            bytesLaidOut += parts.extend(to: step, handles: source.handleID)
        }
        bytesLaidOut += parts.extend(to: limit, handles: source.handleID)
        shownParts[comment.id] = parts
        return (TextLayout(width: bodyWidth, lines: parts.lines.isEmpty ? [TextLayout.Line()] : parts.lines), parts.hiddenBytes)
    }

    private func makeLayout(_ item: FeedItem, _ source: Source) -> CommentLayout {
        switch item {
        case .comment(let comment), .encrypted(let comment):
            let user = source.user(comment.author)
            let header = CommentHeaderLayout(
                name: user?.name ?? comment.author, handle: user?.handle, edited: comment.edited != nil,
                identityChanged: source.identityChanged(comment.author), trust: source.senderTrust(comment.author),
                width: width - Self.gutter - 1)
            let limit = source.printsWhole ? Self.printedBodyBytes : source.shownBytes(comment.id) ?? Self.shownBodyBytes
            let (full, hiddenBytes) = bodyLayout(of: comment, limit: limit, source)
            let collapsible = full.lines.count > Self.collapsedRows || hiddenBytes > 0
            let body: TextLayout
            if source.printsWhole {
                body = full.withOmittedMarker(hiddenBytes: hiddenBytes)
            } else if !collapsible {
                body = full
            } else if !source.isExpanded(comment.id) {
                body = full.truncated(toRows: Self.collapsedRows, andMore: hiddenBytes > 0)
            } else if hiddenBytes > 0 {
                body = full.withShowMoreMarker(hiddenBytes: hiddenBytes, nextBytes: Self.limit(after: limit) - limit)
                    .withCollapseMarker()
            } else {
                body = full.withCollapseMarker()
            }
            // A reply opens with a one-row quote of what it answers and a blank row, laid out apart
            // from the body: its spoilers are not the body's (numbered, revealed) ones.
            let quote = source.printsWhole ? nil : source.replyQuote(comment)?.line(width: bodyWidth, handles: source.handleID)
            let spoilers = Set(full.lines.flatMap { line in line.runs.compactMap(\.style.spoiler) })
            var layout = CommentLayout(item: item, header: header,
                                       body: quote.map { body.withLeadingLines([$0, TextLayout.Line()]) } ?? body,
                                       isCollapsible: collapsible, hiddenBytes: hiddenBytes, spoilers: spoilers)
            layout.replyQuoteLines = quote == nil ? 0 : 1
            return layout
        case .gap, .problem:
            var text = AttributedString(item.notice ?? "")
            text[CommentAttributes.CodeAttribute.self] = nil
            return CommentLayout(item: item, header: nil, body: TextLayout(text, width: bodyWidth), isCollapsible: false,
                                 hiddenBytes: 0, spoilers: [])
        }
    }
}
