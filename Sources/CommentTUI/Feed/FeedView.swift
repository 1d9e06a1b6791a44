import Foundation
import ScrollEngine
import ThreadModel

/// The feed: comments from an anchor on, drawn into a rectangle.
struct FeedView {
    var anchor: FeedAnchor
    var commentCount: Int
    /// Rows of the post's collapse range (comment `FeedScroll.postID`); the header draws over them.
    var postRows: Int
    var ownUserID: String
    /// The comment the reader selected (Alt-Up/Alt-Down), marked in the gutter.
    var selected: Int?
    /// What time relative times are counted to.
    var now: Date
    /// The layout of a comment (cached by the app).
    var layout: (Int) -> CommentLayout
    /// Spoilers revealed, by comment id.
    var revealed: (String) -> Set<Int>
    /// Where a comment of ours is on its way to the thread, by id (nil: it is there).
    var delivery: (String) -> CommentDelivery? = { _ in nil }
    /// Effects running on a comment, by id, and the frame's time they are drawn at.
    var effects: (String) -> [TextEffect] = { _ in [] }
    var time = ScrollInstant.zero
    /// How fades look on this terminal.
    var palette = EffectPalette(colorCount: 256)
    /// The search open, if any: its matches stand out in the text and the headers.
    var search: SearchPattern?

    /// A link whose every line was on screen.
    struct VisibleLink: Hashable, Sendable {
        var commentID: String
        var url: String
    }

    /// What a drawn feed showed.
    struct Drawn: Equatable, Sendable {
        /// Links drawn whole.
        var links: Set<VisibleLink> = []
        /// The comment each screen row showed a header or body row of (a divider or the blank
        /// row after a comment shows nothing of it), by screen row.
        var commentRows: [Int: Int] = [:]

        /// The comments with a header or body row on screen, oldest to newest (the feed shows a run).
        var commentsShown: ClosedRange<Int>? {
            guard let first = commentRows.values.min(), let last = commentRows.values.max() else { return nil }
            return first...last
        }

        /// Rows something drew over (the mention list): what they showed was not seen.
        mutating func cover(rows: some Sequence<Int>) {
            for row in rows { commentRows[row] = nil }
        }
    }

    /// Draws the feed; returns what it showed.
    @discardableResult
    func draw(into buffer: inout CellBuffer, rect: CellRect) -> Drawn {
        var drawn = Drawn()
        // The last column is the scrollbar's.
        let end = rect.column + rect.width - 1
        var position = anchor
        var shownLines: [Int: (first: Int, last: Int)] = [:]
        var matches: [Int: [Int: [Range<Int>]]] = [:]
        for screenRow in rect.row..<rect.maxRow {
            buffer.fill(row: screenRow, from: rect.column, to: end)
            guard position.comment < commentCount else { continue }
            if position.comment < 0 {
                position.row += 1
                if position.row >= postRows { position = FeedAnchor(comment: 0, row: 0) }
                continue
            }
            let comment = layout(position.comment)
            let running = comment.commentID.map(effects) ?? []
            if position.comment == selected {
                buffer.write("▌", column: rect.column, row: screenRow, style: Theme.selectionGutter, limit: end)
            }
            switch comment.part(atRow: position.row) {
            case .divider:
                drawDivider(into: &buffer, row: screenRow, column: rect.column + FeedLayout.gutter, end: end)
            case .header(let row):
                drawn.commentRows[screenRow] = position.comment
                if let c = comment.comment, let header = comment.header {
                    var x = drawHeader(header.rows[row], comment: c, into: &buffer, row: screenRow, column: rect.column + FeedLayout.gutter, end: end)
                    if row == 0, let state = delivery(c.id) {
                        var note = " · sending…"
                        if case .failed(let reason) = state { note = " · not sent: \(reason)" }
                        x = buffer.write(note, column: x, row: screenRow, style: state == .sending ? Theme.dim : Theme.problem, limit: end)
                    }
                    highlightHeader(running, in: &buffer, row: screenRow, from: rect.column + FeedLayout.gutter, to: x)
                }
            case .body(let line):
                drawn.commentRows[screenRow] = position.comment
                if comment.comment == nil {
                    var x = rect.column + FeedLayout.bodyIndent
                    let style = comment.item.isGap ? Theme.dim : Theme.problem
                    for run in comment.body.lines[line].runs {
                        for cluster in run.clusters { x = buffer.put(cluster, column: x, row: screenRow, style: style, limit: end) }
                    }
                } else {
                    let id = comment.commentID ?? ""
                    if let search, matches[position.comment] == nil {
                        // The lines this screen can show from here, and one each side for a match across lines.
                        let lines = max(0, line - 1)..<min(comment.body.lines.count, line + rect.height + 1)
                        matches[position.comment] = MatchCells.find(search, in: comment.body.lines, range: lines, revealed: revealed(id))
                    }
                    CommentRenderer(revealedSpoilers: revealed(id), ownUserID: ownUserID, effects: running, time: time,
                                    seed: running.isEmpty ? 0 : CommentRenderer.seed(of: id), matches: matches[position.comment] ?? [:])
                        .draw(comment.body.lines[line], number: line, into: &buffer, column: rect.column + FeedLayout.bodyIndent,
                              row: screenRow, limit: end)
                    // Not in the thread yet: dimmed until the server has it.
                    if delivery(id) != nil { buffer.restyle(row: screenRow, from: rect.column + FeedLayout.bodyIndent, to: end) { $0 = $0.adding(.dim) } }
                    // A row in place of what cannot be shown: dim and italic over the whole row,
                    // unlike a message's text, so that a message saying the same does not pass for one.
                    if case .encrypted = comment.item {
                        buffer.restyle(row: screenRow, from: rect.column + FeedLayout.bodyIndent, to: end) { $0 = $0.adding([.dim, .italic]) }
                    }
                    let seen = shownLines[position.comment]
                    shownLines[position.comment] = (seen?.first ?? line, line)
                }
            case .reactions:
                drawn.commentRows[screenRow] = position.comment
                if let reactions = comment.reactions {
                    let x = drawReactions(reactions, into: &buffer, row: screenRow, column: rect.column + FeedLayout.bodyIndent, end: end)
                    if let flash = running.first(where: { $0.kind == .reactionFlash }) {
                        let progress = flash.progress(at: time)
                        buffer.restyle(row: screenRow, from: rect.column + FeedLayout.bodyIndent, to: x) { palette.flash(&$0, progress: progress) }
                    }
                }
            case .postSummary:
                drawn.commentRows[screenRow] = position.comment
                if let line = comment.postSummary {
                    drawPostSummary(line, into: &buffer, row: screenRow, column: rect.column + FeedLayout.bodyIndent, end: end)
                }
            case .gap:
                break
            }
            revealArrival(running, in: &buffer, row: screenRow, from: rect.column, to: end)
            position.row += 1
            if position.row >= comment.rowCount { position = FeedAnchor(comment: position.comment + 1, row: 0) }
        }
        for (index, lines) in shownLines {
            let comment = layout(index)
            guard let id = comment.commentID else { continue }
            let shown = revealed(id)
            for link in comment.body.links where link.lines.lowerBound >= lines.first && link.lines.upperBound <= lines.last
                && link.spoilers.isSubset(of: shown) {
                drawn.links.insert(VisibleLink(commentID: id, url: link.url))
            }
        }
        return drawn
    }

    /// A header's highlight while a mention's glow or a jump's flash runs on its comment.
    private func highlightHeader(_ running: [TextEffect], in buffer: inout CellBuffer, row: Int, from start: Int, to end: Int) {
        for effect in running {
            let progress = effect.progress(at: time)
            switch effect.kind {
            case .mentionGlow: buffer.restyle(row: row, from: start, to: end) { palette.glow(&$0, progress: progress) }
            case .headerFlash: buffer.restyle(row: row, from: start, to: end) { palette.flash(&$0, progress: progress) }
            case .arrival, .spoiler, .reactionFlash: break
            }
        }
    }

    /// An arriving comment's row, revealed left to right: blank past the moving edge, fainter
    /// just behind it.
    private func revealArrival(_ running: [TextEffect], in buffer: inout CellBuffer, row: Int, from start: Int, to end: Int) {
        guard let arrival = running.first(where: { $0.kind == .arrival }) else { return }
        let width = end - start
        let edge = start + Int((arrival.progress(at: time) * Double(width + EffectPalette.arrivalEdge)).rounded(.down))
        buffer.fill(row: row, from: max(start, edge), to: end)
        var x = max(start, edge - EffectPalette.arrivalEdge)
        while x < min(edge, end) {
            buffer.restyle(row: row, from: x, to: x + 1) { palette.arrivalEdge(&$0, distance: edge - 1 - x) }
            x += 1
        }
    }

    private func drawDivider(into buffer: inout CellBuffer, row: Int, column: Int, end: Int) {
        let label = " new "
        let side = max(0, (end - column - label.count) / 2)
        var x = buffer.write(repeating: "─", count: side, column: column, row: row, style: Theme.unreadDivider, limit: end)
        x = buffer.write(label, column: x, row: row, style: Theme.unreadDivider.adding(.bold), limit: end)
        buffer.write(repeating: "─", count: max(0, end - x), column: x, row: row, style: Theme.unreadDivider, limit: end)
    }

    @discardableResult
    private func drawHeader(_ pieces: [CommentHeaderLayout.Piece], comment: Comment, into buffer: inout CellBuffer, row: Int, column: Int, end: Int) -> Int {
        var x = column
        let time = RelativeTime.text(for: comment.created, now: now)
        for (n, piece) in pieces.enumerated() {
            if n > 0, piece != .separator, pieces[n - 1] != .separator { x += 1 }
            let style: CellStyle
            switch piece {
            case .name: style = comment.author == ownUserID ? Theme.ownName : Theme.authorName
            case .handle: style = Theme.handle
            case .time, .edited, .separator: style = Theme.dim
            case .identityChanged: style = Theme.identityChanged
            case .verified: style = Theme.senderVerified
            case .unverified: style = Theme.senderUnverified
            }
            let text = CommentHeaderLayout.text(of: piece, time: time).text
            let start = x
            x = buffer.write(text, column: x, row: row, style: style, limit: end)
            switch piece {
            case .name, .handle: break
            case .time, .edited, .identityChanged, .verified, .unverified, .separator: continue
            }
            guard let search else { continue }
            for columns in MatchCells.find(search, in: text) {
                buffer.restyle(row: row, from: start + columns.lowerBound, to: min(x, start + columns.upperBound)) { $0 = Theme.searchMatch }
            }
        }
        return x
    }
}
