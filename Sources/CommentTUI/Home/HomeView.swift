import Foundation
import ScrollEngine

/// Draws home into its frame: a header row (`Home`, the filter as typed, or a question waiting
/// for y/n), then two rows a thread: its name with its markers, counts and time, and a line
/// under it with the newest comment (as the feed renders it), who is typing, or the invite.
///
/// Every text from a thread (names, previews, inviters) goes into the buffer through
/// `CellBuffer.write` or laid-out cells, which show controls as placeholders, and is cut with
/// `…` (`TextFit`) to the width.
struct HomeView {
    var list: HomeList
    /// The wall clock's time, for the relative times (`5m ago`).
    var now: Date

    /// The encrypted room's marker: a lock, two columns wherever the C library knows emoji.
    static let encryptedMarker = "🔒"

    func draw(into buffer: inout CellBuffer) {
        let frame = list.frame
        guard frame.height > 0, frame.width > 0 else { return }
        for row in frame.row..<frame.maxRow { buffer.fill(row: row, from: frame.column, to: frame.maxColumn) }
        drawHeader(into: &buffer)
        let rect = list.listRect
        guard rect.height > 0 else { return }
        if list.rows.isEmpty { return drawEmpty(into: &buffer, rect: rect) }
        for r in 0..<rect.height {
            guard let item = list.model.item(atViewportRow: r) else { continue }
            let line = list.model.geometry.drawnOffset + r - item * HomeList.rowHeight
            drawRow(item, line: line, into: &buffer, row: rect.row + r, rect: rect)
        }
    }

    /// ` Home · 3 threads` (` · 440 more and the counts coming` while a list comes),
    /// ` Home · caf · 1 of 3 · Esc clears`, or the question.
    private func drawHeader(into buffer: inout CellBuffer) {
        let frame = list.frame
        let end = frame.maxColumn
        if let question = list.question {
            buffer.fill(row: frame.row, from: frame.column, to: end, style: Theme.homeQuestion)
            let answer = "? y/n"
            var x = buffer.write(question.kind == .leave ? " Leave " : " Decline the invite to ", column: frame.column,
                                 row: frame.row, style: Theme.homeQuestion, limit: end)
            x = buffer.write(question.name, column: x, row: frame.row, style: Theme.homeQuestion.adding(.bold),
                             cuttingAt: max(x, end - answer.count))
            buffer.write(answer, column: x, row: frame.row, style: Theme.homeQuestion, limit: end)
            return
        }
        buffer.fill(row: frame.row, from: frame.column, to: end, style: Theme.homeHeader)
        var x = buffer.write(" Home", column: frame.column, row: frame.row, style: Theme.homeHeader.adding(.bold), limit: end)
        // Threads (rooms, files) are counted; the posts listed under their rooms are not.
        let threads = list.summaries.count { $0.key.postRoom == nil }
        let count = list.filter.isEmpty ? CountText.of(threads, "thread")
            : "\(list.rows.indices.count { list.summary(atRow: $0).key.postRoom == nil }) of \(threads)"
        guard !list.filter.isEmpty else {
            let coming = list.roomsComing.map { $0 > 0 ? " · \($0) more and the counts coming" : " · counts coming" } ?? ""
            buffer.write(" · " + count + coming, column: x, row: frame.row, style: Theme.homeHeader, cuttingAt: end)
            return
        }
        // The filter whole where it fits, then the count, then the key that clears it.
        let tail = [" · \(count) · Esc clears", " · \(count)", ""].first { TextFit.fits(" · " + list.filter + $0, in: end - x) } ?? ""
        x = buffer.write(" · ", column: x, row: frame.row, style: Theme.homeHeader, limit: end)
        x = buffer.write(list.filter, column: x, row: frame.row, style: Theme.homeHeader.adding(.bold), cuttingAt: end)
        buffer.write(tail, column: x, row: frame.row, style: Theme.homeHeader, limit: end)
    }

    private func drawEmpty(into buffer: inout CellBuffer, rect: CellRect) {
        let text = list.filter.isEmpty ? "  No threads yet" : "  No thread matches “\(list.filter)” · Esc clears"
        buffer.write(text, column: rect.column, row: rect.row, style: Theme.dim, cuttingAt: rect.maxColumn)
    }

    /// Line `line` (0: the name, 1: the preview) of row `item`.
    private func drawRow(_ item: Int, line: Int, into buffer: inout CellBuffer, row: Int, rect: CellRect) {
        let summary = list.summary(atRow: item)
        let selected = item == list.selectedRow
        let end = rect.maxColumn
        let gutter = selected && line == 0 ? "▸ " : "  "
        var x = buffer.write(gutter, column: rect.column, row: row, style: Theme.selectionGutter, limit: end)
        // A post sits under its room, indented, its name line marked as one of the room's.
        if summary.key.postRoom != nil {
            x = buffer.write(line == 0 ? "↳ " : "  ", column: x, row: row, style: Theme.dim, limit: end)
        }
        if line == 0 {
            drawNameLine(summary, highlights: list.rows[item].highlights, into: &buffer, column: x, row: row, end: end)
        } else {
            drawPreviewLine(summary, into: &buffer, column: x, row: row, end: end)
        }
    }

    /// `Café Society 🔒 ······ 3 @1 5m ago`: the name (bold while unread, the filter's match
    /// underlined), the lock, and on the right the unread count, the mention badge and the time.
    private func drawNameLine(_ summary: ThreadSummary, highlights: [Range<Int>], into buffer: inout CellBuffer,
                              column: Int, row: Int, end: Int) {
        var right: [(String, CellStyle)] = []
        if let replies = summary.replies { right.append((CountText.of(replies, "reply", plural: "replies"), Theme.dim)) }
        if summary.unread > 0 { right.append(("\(summary.unread)", Theme.homeUnread)) }
        if summary.highlights > 0 { right.append(("@\(summary.highlights)", Theme.homeMentionBadge)) }
        if let activity = summary.activity { right.append((RelativeTime.text(for: activity, now: now), Theme.dim)) }
        let lock = summary.isEncrypted ? " " + Self.encryptedMarker : ""
        func rightWidth() -> Int { right.reduce(0) { $0 + 1 + DisplayWidth.width(of: $1.0) } }
        // A narrow row gives up the time first, then the lock: the name and counts matter most.
        let nameWidth = DisplayWidth.width(of: summary.name)
        var markers = lock
        if end - column - rightWidth() - DisplayWidth.width(of: markers) < min(nameWidth, 8), summary.activity != nil {
            right.removeLast()
        }
        if end - column - rightWidth() - DisplayWidth.width(of: markers) < min(nameWidth, 4) { markers = "" }
        let nameEnd = max(column, end - rightWidth() - DisplayWidth.width(of: markers))
        let style = summary.unread > 0 || summary.invite != nil ? Theme.homeUnreadName : Theme.homeName
        var x = buffer.write(summary.name, highlighting: highlights, column: column, row: row, style: style, end: nameEnd)
        x = buffer.write(markers, column: x, row: row, style: Theme.homeMarker, limit: end)
        x = max(x, end - rightWidth())
        for (text, style) in right {
            x = buffer.write(" ", column: x, row: row, limit: end)
            x = buffer.write(text, column: x, row: row, style: style, limit: end)
        }
    }

    /// The invite, who is typing, or `author: preview` (as the feed renders it); a room's last
    /// post row ends in how many more posts it has.
    private func drawPreviewLine(_ summary: ThreadSummary, into buffer: inout CellBuffer, column: Int, row: Int, end: Int) {
        let fullEnd = end
        var end = end
        if let more = summary.morePosts {
            let tail = " · \(more) more posts"
            end = max(column, end - DisplayWidth.width(of: tail))
            // Cut at the row's end when the row is narrower than the tail.
            buffer.write(tail, column: end, row: row, style: Theme.dim, limit: min(end + DisplayWidth.width(of: tail), fullEnd))
        }
        if let invite = summary.invite {
            let from = invite.inviter.map { "invite from \($0)" } ?? "invite"
            buffer.write(from, column: column, row: row, style: Theme.homeInvite, cuttingAt: end)
            return
        }
        if !summary.typing.isEmpty {
            let who = summary.typing.count <= 2 ? summary.typing.joined(separator: ", ") : "\(summary.typing.count) people"
            // The names give way before `typing…` does.
            let tail = " typing…"
            let x = buffer.write(who, column: column, row: row, style: Theme.homeTyping, cuttingAt: max(column, end - tail.count))
            buffer.write(tail, column: x, row: row, style: Theme.homeTyping, limit: end)
            return
        }
        guard let preview = summary.preview else {
            let none = summary.isEncrypted ? "encrypted: not readable yet" : "no comments yet"
            buffer.write(none, column: column, row: row, style: Theme.dim, cuttingAt: end)
            return
        }
        var x = column
        if let author = summary.author {
            // The author keeps at most half the row, so the preview always shows.
            x = buffer.write(author, column: x, row: row, style: Theme.authorName, cuttingAt: column + max(1, (end - column) / 2))
            x = buffer.write(": ", column: x, row: row, style: Theme.body, limit: end)
        }
        let line = ThreadPreviewCache.cut(list.previews.line(for: summary.key, body: preview), to: end - x)
        CommentRenderer().draw(line, into: &buffer, column: x, row: row, limit: end)
    }
}
