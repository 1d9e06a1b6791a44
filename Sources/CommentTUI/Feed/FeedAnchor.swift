/// A position in the feed: a comment and a row inside it (its header is row 0); the thread
/// post's rows are comment `FeedScroll.postID`.
///
/// The scroll engine owns the scrolling (`FeedScroll`, over a window of comments); this is how
/// its position is handed on: the top row it shows (`FeedScroll.anchor`), the row under a
/// pointer, and where a `FeedView` starts drawing (the `render` verb starts one at a comment).
struct FeedAnchor: Equatable, Comparable {
    var comment: Int
    var row: Int

    static let top = FeedAnchor(comment: 0, row: 0)

    static func < (a: FeedAnchor, b: FeedAnchor) -> Bool {
        (a.comment, a.row) < (b.comment, b.row)
    }
}
