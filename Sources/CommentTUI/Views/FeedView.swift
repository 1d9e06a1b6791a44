import ScrollEngine
import ThreadModel

/// The feed: comments from an anchor on, drawn into a rectangle.
struct FeedView {
    var thread: CommentThread
    var anchor: FeedAnchor
    var commentCount: Int
    var ownUserID: String
    /// The rows of a comment, laid out (and cached) by the app.
    var rows: (Int) -> [FeedRow]

    func draw(into buffer: inout CellBuffer, rect: CellRect) {
        let end = rect.column + rect.width
        var position = anchor
        for screenRow in rect.row..<rect.maxRow {
            buffer.fill(row: screenRow, from: rect.column, to: end)
            guard position.comment < commentCount else { continue }
            let rows = rows(position.comment)
            let row = rows[min(position.row, rows.count - 1)]
            switch row.kind {
            case .header(let comment):
                drawHeader(comment, into: &buffer, row: screenRow, column: rect.column, end: end)
            case .body, .problem:
                var x = rect.column + FeedLayout.indent
                let style = row.kind == .problem ? Theme.problem : Theme.body
                for cluster in row.row.clusters {
                    x = buffer.put(cluster, column: x, row: screenRow, style: style, limit: end)
                }
            case .gap:
                break
            }
            position.row += 1
            if position.row >= rows.count { position = FeedAnchor(comment: position.comment + 1, row: 0) }
        }
    }

    private func drawHeader(_ comment: Comment, into buffer: inout CellBuffer, row: Int, column: Int, end: Int) {
        let user = thread.user(id: comment.author)
        let nameStyle = comment.author == ownUserID ? Theme.ownName : Theme.authorName
        var x = buffer.write(user?.name ?? comment.author, column: column, row: row, style: nameStyle, limit: end)
        if let handle = user?.handle {
            x = buffer.write(" @" + handle, column: x, row: row, style: Theme.handle, limit: end)
        }
        x = buffer.write(" · " + HeaderView.dateText(comment.created), column: x, row: row, style: Theme.dim, limit: end)
        if comment.edited != nil {
            buffer.write(" · edited", column: x, row: row, style: Theme.dim, limit: end)
        }
    }
}
