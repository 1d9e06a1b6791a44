import ScrollEngine
import Foundation
import ThreadModel

/// The thread header's collapsing rows at one width: the author line, then the start of the post.
///
/// The title row and the rule under the header always show; these rows sit between them and
/// collapse row by row as the feed scrolls through the post's rows (`FeedScroll.postID`).
struct ThreadHeaderLayout {
    let width: Int
    /// The first rows of the post's body.
    let bodyLines: [TextLayout.Line]
    /// The links of those rows that show whole, with the rows they span.
    let links: [(url: String, lines: ClosedRange<Int>, spoilers: Set<Int>)]
    /// Rows that collapse: the author line and the body's first lines.
    var postRows: Int { 1 + bodyLines.count }
    /// Body rows shown at most.
    static let bodyRows = 3

    /// `bodyRows`: nil lays the post out whole (`render` prints it so), up to
    /// `FeedLayout.printedBodyBytes`, with a line counting what is left out after that.
    init(thread: CommentThread, width: Int, handles: (String) -> String?, bodyRows: Int? = Self.bodyRows) {
        self.width = width
        // A few rows show: a huge post is parsed as far as a comment is (`ShownBody`).
        let body = ShownBody(thread.body, limit: bodyRows == nil ? FeedLayout.printedBodyBytes : FeedLayout.shownBodyBytes)
        let layout = TextLayout(CommentMarkup.parseRuns(body.text, handles: handles), width: max(4, width - 2))
        let nonEmpty = layout.lines.contains { !$0.runs.isEmpty }
        if let bodyRows {
            let shown = layout.truncated(toRows: bodyRows, andMore: body.hiddenBytes > 0)
            bodyLines = nonEmpty ? Array(shown.lines.prefix(bodyRows)) : []
            links = nonEmpty ? shown.links : []
        } else {
            bodyLines = nonEmpty ? layout.withOmittedMarker(hiddenBytes: body.hiddenBytes).lines : []
            links = nonEmpty ? layout.links : []
        }
    }

    /// The style of the cell at a body line and column (for clicks).
    func style(line: Int, column: Int) -> TextRunStyle? {
        TextLayout(width: width, lines: bodyLines).style(line: line, column: column)
    }
}

/// The thread header: the title, the collapsing rows (author, start of the post), then a rule.
struct HeaderView {
    var thread: CommentThread
    var commentCount: Int
    var layout: ThreadHeaderLayout
    /// Collapsing rows on screen now (0 = collapsed to the title).
    var shownRows: Int
    var ownUserID: String
    /// A word after the title that outlasts the rest of its row (`🔒 encrypted`).
    var notice: String? = nil
    /// Whether the server has older comments than those counted (a room's unloaded history):
    /// the count is then of what is loaded, and says so (`50+ comments`).
    var countsLoadedOnly = false
    /// Rows the header takes when collapsed: the title and the rule.
    static let collapsedHeight = 2
    /// The column the post's rows start at.
    static let bodyColumn = 1

    /// Rows the header takes now.
    var height: Int { Self.collapsedHeight + shownRows }

    /// Draws the header; returns the post's links it showed whole, for the visibility log as
    /// the feed's are (spoilers are never revealed here, so a link in one never counts).
    @discardableResult
    func draw(into buffer: inout CellBuffer, width: Int) -> Set<FeedView.VisibleLink> {
        let end = width
        buffer.fill(row: 0, from: 0, to: end)
        // Collapsed, the author and the count follow the title where they fit whole: the count
        // goes first, then the author, then the title is cut with `…`, as the status bar does.
        // The notice is never given up: its width is kept first, whatever the title's length.
        let noticeText = notice.map { " · " + $0 }
        let noticeWidth = noticeText.map { DisplayWidth.width(of: $0) } ?? 0
        var tail: [(text: String, style: CellStyle)] = []
        if shownRows == 0 {
            if let handle = thread.user(id: thread.author)?.handle { tail.append((" · @" + handle, Theme.handle)) }
            tail.append((" · " + countText, Theme.dim))
        }
        // A column of margin either side.
        let room = end - 2
        let titleWidth = DisplayWidth.width(of: thread.title)
        while !tail.isEmpty, titleWidth + noticeWidth + tail.reduce(0, { $0 + DisplayWidth.width(of: $1.text) }) > room { tail.removeLast() }
        var x = buffer.write(thread.title, column: 1, row: 0, style: Theme.title, cuttingAt: max(2, end - 1 - noticeWidth))
        if let noticeText { x = buffer.write(noticeText, column: x, row: 0, style: Theme.notice, limit: end - 1) }
        for part in tail { x = buffer.write(part.text, column: x, row: 0, style: part.style, limit: end - 1) }
        for i in 0..<shownRows {
            let row = 1 + i
            buffer.fill(row: row, from: 0, to: end)
            if i == 0 {
                drawAuthorLine(into: &buffer, row: row, end: end)
            } else if i - 1 < layout.bodyLines.count {
                CommentRenderer(revealedSpoilers: [], ownUserID: ownUserID)
                    .draw(layout.bodyLines[i - 1], into: &buffer, column: Self.bodyColumn, row: row, limit: end - 1)
            }
        }
        buffer.write(repeating: "─", count: width, column: 0, row: 1 + shownRows, style: Theme.rule, limit: end)
        // Body row i is on screen row 2 + i when the header shows that many rows.
        let rowsShown = max(0, shownRows - 1)
        return Set(layout.links.filter { $0.lines.upperBound < rowsShown && $0.spoilers.isEmpty }
            .map { FeedView.VisibleLink(commentID: thread.id, url: $0.url) })
    }

    /// `3 comments`, or `50+ comments` while older ones are on the server.
    private var countText: String {
        countsLoadedOnly ? "\(commentCount)+ comments" : CountText.of(commentCount, "comment")
    }

    /// The author line; where the row is too narrow the count goes, then the date, whole, and
    /// then the name is cut with `…` so the handle still shows.
    private func drawAuthorLine(into buffer: inout CellBuffer, row: Int, end: Int) {
        let author = thread.user(id: thread.author)
        let name = author?.name ?? thread.author
        let handle = author.map { " @" + $0.handle } ?? ""
        // A column of margin either side.
        let room = end - 2
        var tail = [" · " + Self.dateText(thread.created), " · " + countText]
        while !tail.isEmpty, DisplayWidth.width(of: name + handle + tail.joined()) > room { tail.removeLast() }
        let nameLimit = end - 1 - DisplayWidth.width(of: handle)
        // The name keeps a character and its `…` even when a long handle has to be cut too.
        var x = buffer.write(name, column: 1, row: row, style: Theme.authorName,
                             cuttingAt: max(nameLimit, 1 + min(2, DisplayWidth.width(of: name))))
        x = buffer.write(handle, column: x, row: row, style: Theme.handle, cuttingAt: end - 1)
        buffer.write(tail.joined(), column: x, row: row, style: Theme.dim, limit: end - 1)
    }

    static func dateText(_ date: Date) -> String { TimestampText.utc(date) }
}
