import ScrollEngine
import ThreadModel

extension CommentApp {
    /// Comments in the feed: the store's, then those in memory.
    var commentCount: Int { (store?.commentCount ?? 0) + thread.comments.count }

    /// The comment at a feed position, or why its line did not read.
    func feedComment(at index: Int) -> Result<Comment, ThreadFileProblem> {
        let stored = store?.commentCount ?? 0
        if index < stored, let store { return store.comment(at: index) }
        return .success(thread.comments[index - stored])
    }

    var feedLayout: FeedLayout {
        if let cached = layoutCache, cached.width == size.columns { return cached }
        let layout = FeedLayout(width: size.columns)
        layoutCache = layout
        feedScroll.invalidateAll()
        return layout
    }

    /// The comment at a feed position as the feed shows it.
    func commentLayout(_ index: Int) -> CommentLayout {
        feedLayout.layout(of: index, FeedLayout.Source(
            comment: { self.feedComment(at: $0) },
            user: { self.thread.user(id: $0) },
            handleID: { self.handleID($0) },
            isExpanded: { self.expandedComments.contains($0) },
            startsUnread: { $0 == self.firstUnread }))
    }

    /// Rows the comment at a feed position takes.
    func rowCount(_ index: Int) -> Int { commentLayout(index).rowCount }

    /// The thread header's collapsing rows at the current width.
    var threadHeader: ThreadHeaderLayout {
        if let cached = headerCache, cached.width == size.columns { return cached }
        let layout = ThreadHeaderLayout(thread: thread, width: size.columns, handles: { self.handleID($0) })
        headerCache = layout
        return layout
    }

    /// Rows the header collapses over: its collapsing rows, at most half the feed.
    var headerPostRows: Int { min(threadHeader.postRows, max(1, regions.feed.height / 2)) }

    /// The feed's place: the comment and row on its top row (`FeedScroll.postID` in the post's rows).
    var feedAnchor: FeedAnchor { feedScroll.anchor }

    /// Whether the feed shows its newest row (and so follows new comments).
    var isFollowingBottom: Bool { feedScroll.model.isAtBottom }

    /// Brings the feed to the frame about to be drawn: size, heights on and near the screen, time.
    func prepareFeed() {
        let feed = regions.feed
        if feed.height != feedScroll.model.containerSize.rows || size.columns != feedScroll.model.containerSize.columns
            || headerPostRows != feedScroll.postRows {
            feedScroll.setViewport(rows: feed.height, columns: size.columns, postRows: headerPostRows)
        }
        _ = feedLayout  // a new width marks every height stale
        feedScroll.model.advance(to: now)
        feedScroll.prepare(rows: rowCount)
        if isFollowingBottom { newCount = 0 }
    }

    /// The feed's rows below the header's expanded rows: where the scrollbar and marker go.
    var chromeRect: CellRect {
        let feed = regions.feed
        let covered = min(feed.height, feedScroll.postRowsShown)
        return CellRect(column: feed.column, row: feed.row + covered, width: feed.width, height: feed.height - covered)
    }

    /// How far the feed's content moved since the last frame, measured on a comment both frames
    /// show (heights measured or batches added above it move offsets, not content).
    func feedScrollSinceLastFrame(feed: CellRect) -> FrameScroll? {
        let model = feedScroll.model
        defer {
            let top = feedAnchor
            lastFeedFrame = top.comment >= 0 && feedScroll.postRowsShown == 0
                ? (top.comment, -top.row, feed) : nil
        }
        guard let last = lastFeedFrame, last.feed == feed, feedScroll.postRowsShown == 0,
              let start = model.items.offset(of: last.comment) else { return nil }
        let shift = last.start - (start - model.geometry.drawnOffset)
        return shift == 0 ? nil : FrameScroll(rows: feed.row..<feed.maxRow, shift: shift)
    }

    /// Applies a scroll input to the feed at the app's time.
    func scrollFeed(_ input: ScrollInput) {
        feedScroll.model.handle(input, at: now)
    }

    /// Scrolls to the first comment not read when the thread was opened.
    func scrollFeedToFirstUnread() {
        guard let first = firstUnread, first < commentCount else {
            show("no unread comments")
            return
        }
        feedScroll.scrollTo(comment: first, animated: true, at: now)
    }

    /// The read marker to save: the newest comment seen, if any was.
    public var readMarker: ReadMarker? {
        guard let seen = lastSeen, seen < commentCount, case .success(let comment) = feedComment(at: seen) else { return nil }
        return ReadMarker(commentID: comment.id, position: seen)
    }

    /// Sets the first unread comment from a saved marker, if it still names the same comment.
    public func restore(_ marker: ReadMarker?) {
        guard let marker, marker.position < commentCount,
              case .success(let comment) = feedComment(at: marker.position), comment.id == marker.commentID else { return }
        firstUnread = marker.position + 1 < commentCount ? marker.position + 1 : nil
        lastSeen = marker.position
    }

    /// Scrolls to the thread's post, animated.
    func scrollFeedToTop() {
        feedScroll.scrollToTop(at: now)
    }

    /// Scrolls to the newest comment, animated, and follows from there.
    func scrollFeedToBottom() {
        newCount = 0
        feedScroll.scrollToBottom(at: now)
    }

    /// The comment being read at the top of the feed, 1-based, and the count.
    var feedPosition: (index: Int, count: Int) {
        let count = commentCount
        guard count > 0 else { return (0, 0) }
        let anchor = feedAnchor
        guard anchor.comment >= 0 else { return (1, count) }
        // A comment's trailing gap row at the top means the next comment is the one in view.
        let atGap = anchor.row == rowCount(anchor.comment) - 1
        return (min(anchor.comment + 1 + (atGap ? 1 : 0), count), count)
    }
}
