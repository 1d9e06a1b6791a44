import ThreadModel

/// One laid-out row of the feed.
struct FeedRow: Equatable {
    enum Kind: Equatable { case header, body, gap }
    var comment: Int
    var kind: Kind
    var row: WrappedRow
}

/// The feed's comments wrapped at a width: a header row, the body indented, a gap.
///
/// Laid out whole for now; the scale work replaces this with per-comment layouts cached by
/// width and estimated heights for comments not yet shown.
struct FeedLayout {
    let width: Int
    private(set) var rows: [FeedRow] = []
    /// The first row of each comment.
    private(set) var commentStarts: [Int] = []

    static let indent = 2

    init(thread: CommentThread, width: Int) {
        self.width = width
        for (index, comment) in thread.comments.enumerated() {
            commentStarts.append(rows.count)
            rows.append(FeedRow(comment: index, kind: .header, row: WrappedRow(clusters: [])))
            for row in TextWrap.rows(comment.body, width: width - Self.indent - 1) {
                rows.append(FeedRow(comment: index, kind: .body, row: row))
            }
            rows.append(FeedRow(comment: index, kind: .gap, row: WrappedRow(clusters: [])))
        }
    }

    /// Total rows.
    var height: Int { rows.count }

    /// The comment shown at a row of the content, if any.
    func comment(atRow row: Int) -> Int? {
        guard row >= 0, row < rows.count else { return nil }
        return rows[row].comment
    }
}
