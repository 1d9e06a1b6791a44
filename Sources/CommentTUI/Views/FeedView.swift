import ScrollEngine
import ThreadModel

/// The feed: comments from `offset` on, drawn into a rectangle.
struct FeedView {
    var thread: CommentThread
    var layout: FeedLayout
    var offset: Int
    var ownUserID: String

    func draw(into buffer: inout CellBuffer, rect: CellRect) {
        let end = rect.column + rect.width
        for screenRow in rect.row..<rect.maxRow {
            buffer.fill(row: screenRow, from: rect.column, to: end)
            let contentRow = offset + screenRow - rect.row
            guard contentRow >= 0, contentRow < layout.rows.count else { continue }
            let row = layout.rows[contentRow]
            let comment = thread.comments[row.comment]
            switch row.kind {
            case .header:
                drawHeader(comment, into: &buffer, row: screenRow, column: rect.column, end: end)
            case .body:
                var x = rect.column + FeedLayout.indent
                for cluster in row.row.clusters {
                    x = buffer.put(cluster, column: x, row: screenRow, style: Theme.body, limit: end)
                }
            case .gap:
                break
            }
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
