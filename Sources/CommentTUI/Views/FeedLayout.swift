import Foundation
import ThreadModel

/// One laid-out row of the feed.
struct FeedRow: Equatable {
    enum Kind: Equatable {
        /// The comment's header; the comment rides along for the name, handle and time.
        case header(Comment)
        case body
        /// A comment whose line did not read: the problem, in place of the comment.
        case problem
        case gap
    }
    var kind: Kind
    var row: WrappedRow
}

/// Where the feed is read: a comment and a row inside it (its header is row 0).
///
/// The feed keeps this anchor instead of a row offset, so re-wrapping, comments appended below
/// and huge threads cost nothing: scrolling walks from the anchor through the comments it
/// passes, and nothing above or below the screen is laid out.
struct FeedAnchor: Equatable, Comparable {
    var comment: Int
    var row: Int

    static let top = FeedAnchor(comment: 0, row: 0)

    static func < (a: FeedAnchor, b: FeedAnchor) -> Bool {
        (a.comment, a.row) < (b.comment, b.row)
    }
}

/// Comments laid out at one width, on demand, and cached by position.
final class FeedLayout {
    let width: Int
    private var cache: [Int: [FeedRow]] = [:]

    static let indent = 2
    /// Laid-out comments kept; beyond this the cache starts afresh (a screenful is re-laid cheaply).
    static let cacheLimit = 4096

    init(width: Int) { self.width = width }

    /// The rows of the comment at `index`: a header, the body wrapped and indented, a gap.
    func rows(of index: Int, _ comment: () -> Result<Comment, ThreadFileProblem>) -> [FeedRow] {
        if let rows = cache[index] { return rows }
        var rows: [FeedRow] = []
        let textWidth = width - Self.indent - 1
        switch comment() {
        case .success(let comment):
            rows.append(FeedRow(kind: .header(comment), row: WrappedRow(clusters: [])))
            for row in TextWrap.rows(comment.body, width: textWidth) {
                rows.append(FeedRow(kind: .body, row: row))
            }
        case .failure(let problem):
            for row in TextWrap.rows("line \(problem.line): \(problem.message)", width: textWidth) {
                rows.append(FeedRow(kind: .problem, row: row))
            }
        }
        rows.append(FeedRow(kind: .gap, row: WrappedRow(clusters: [])))
        if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
        cache[index] = rows
        return rows
    }
}
