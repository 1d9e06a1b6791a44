import ScrollEngine
import Foundation
import ThreadModel

/// The thread header: title, author and time, then a rule.
struct HeaderView {
    var thread: CommentThread
    var commentCount: Int
    static let height = 3

    func draw(into buffer: inout CellBuffer, rect: CellRect) {
        let end = rect.column + rect.width
        buffer.fill(row: rect.row, from: rect.column, to: end)
        buffer.write(thread.title, column: rect.column + 1, row: rect.row, style: Theme.title, limit: end - 1)
        let author = thread.user(id: thread.author)
        var x = rect.column + 1
        buffer.fill(row: rect.row + 1, from: rect.column, to: end)
        x = buffer.write(author?.name ?? thread.author, column: x, row: rect.row + 1, style: Theme.authorName, limit: end - 1)
        if let handle = author?.handle {
            x = buffer.write(" @" + handle, column: x, row: rect.row + 1, style: Theme.handle, limit: end - 1)
        }
        x = buffer.write(" · " + Self.dateText(thread.created), column: x, row: rect.row + 1, style: Theme.dim, limit: end - 1)
        x = buffer.write(" · \(commentCount) comments", column: x, row: rect.row + 1, style: Theme.dim, limit: end - 1)
        buffer.write(String(repeating: "─", count: rect.width), column: rect.column, row: rect.row + 2, style: Theme.rule, limit: end)
    }

    static func dateText(_ date: Date) -> String { TimestampText.utc(date) }
}
