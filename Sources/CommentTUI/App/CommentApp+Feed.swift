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
        return layout
    }

    /// The comment at a feed position as the feed shows it.
    func commentLayout(_ index: Int) -> CommentLayout {
        feedLayout.layout(of: index, FeedLayout.Source(
            comment: { self.feedComment(at: $0) },
            user: { self.thread.user(id: $0) },
            handleID: { self.userIDsByHandle[$0] },
            isExpanded: { self.expandedComments.contains($0) },
            startsUnread: { $0 == self.firstUnread }))
    }

    /// Rows the comment at a feed position takes.
    func rowCount(_ index: Int) -> Int { commentLayout(index).rowCount }

    /// The anchor `rows` rows after (or before, if negative) `anchor`, stopping at the ends.
    func anchor(_ anchor: FeedAnchor, movedBy rows: Int) -> FeedAnchor {
        guard commentCount > 0 else { return .top }
        var position = anchor
        var remaining = rows
        while remaining > 0 {
            let height = rowCount(position.comment)
            let step = min(remaining, height - 1 - position.row)
            if step > 0 {
                position.row += step
                remaining -= step
            } else if position.comment + 1 < commentCount {
                position = FeedAnchor(comment: position.comment + 1, row: 0)
                remaining -= 1
            } else {
                break
            }
        }
        while remaining < 0 {
            if position.row > 0 {
                let step = min(-remaining, position.row)
                position.row -= step
                remaining += step
            } else if position.comment > 0 {
                position = FeedAnchor(comment: position.comment - 1, row: rowCount(position.comment - 1) - 1)
                remaining += 1
            } else {
                break
            }
        }
        return position
    }

    /// The anchor that shows the feed's last row on its last screen row (the top when it all fits).
    var bottomAnchor: FeedAnchor {
        guard commentCount > 0 else { return .top }
        let last = commentCount - 1
        let end = FeedAnchor(comment: last, row: rowCount(last) - 1)
        return anchor(end, movedBy: -(regions.feed.height - 1))
    }

    /// Keeps the anchor inside the feed; while following, puts it at the bottom.
    func clampFeedAnchor() {
        guard !isTooSmall else { return }
        if followsBottom {
            feedAnchor = bottomAnchor
            return
        }
        if feedAnchor.comment >= commentCount { feedAnchor = FeedAnchor(comment: max(0, commentCount - 1), row: 0) }
        if commentCount > 0 {
            feedAnchor.row = min(feedAnchor.row, rowCount(feedAnchor.comment) - 1)
        }
        let bottom = bottomAnchor
        if bottom < feedAnchor {
            feedAnchor = bottom
            followsBottom = true
        }
    }

    /// Scrolls the feed by rows; reaching the bottom resumes following new comments.
    func scrollFeed(by rows: Int) {
        feedAnchor = anchor(feedAnchor, movedBy: rows)
        let bottom = bottomAnchor
        followsBottom = !(feedAnchor < bottom)
        if followsBottom {
            feedAnchor = bottom
            newCount = 0
        }
    }

    /// Scrolls to the first comment not read when the thread was opened.
    func scrollFeedToFirstUnread() {
        guard let first = firstUnread, first < commentCount else {
            show("no unread comments")
            return
        }
        feedAnchor = FeedAnchor(comment: first, row: 0)
        followsBottom = false
        clampFeedAnchor()
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

    /// Scrolls to the first comment.
    func scrollFeedToTop() {
        feedAnchor = .top
        followsBottom = !(feedAnchor < bottomAnchor)
    }

    /// Scrolls to the newest comment and follows from there.
    func scrollFeedToBottom() {
        followsBottom = true
        newCount = 0
        clampFeedAnchor()
    }

    /// Rows of the feed above an anchor: walks every comment above it, so for small threads only.
    func rowsAbove(_ anchor: FeedAnchor) -> Int {
        (0..<anchor.comment).reduce(anchor.row) { $0 + rowCount($1) }
    }

    /// The comment being read at the top of the feed, 1-based, and the count.
    var feedPosition: (index: Int, count: Int) {
        let count = commentCount
        guard count > 0 else { return (0, 0) }
        // A comment's trailing gap row at the top means the next comment is the one in view.
        let atGap = feedAnchor.row == rowCount(feedAnchor.comment) - 1
        return (min(feedAnchor.comment + 1 + (atGap ? 1 : 0), count), count)
    }
}
