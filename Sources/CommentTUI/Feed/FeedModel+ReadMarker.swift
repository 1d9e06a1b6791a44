import Foundation
import ThreadModel

/// The read marker and the `new` divider.
///
/// The marker moves only over comments that were on screen: from where it stands, through each
/// next comment that had a row in a frame shown with the feed at rest (or is the reader's own),
/// never past one that did not, nor past a gap. Opening at the newest of 30 unread comments therefore moves it nowhere; Alt-U and
/// paging down move it as the comments pass. The divider is where the marker stood when the
/// thread was opened, past any comment of the reader's there: their own are never below it.
extension FeedModel {
    /// How many comments after the marker are looked through for the reader's own when the
    /// divider is placed: many screens, and bounded, since each is decoded (a huge file).
    static let ownCommentScan = 500

    /// The read marker to save: the newest comment read through, if any was.
    /// Never one of the reader's not in the thread yet (sending, or refused): it has no place
    /// in the thread a server could mark, so a refused one left last would hold the marker back.
    var readMarker: ReadMarker? {
        guard var seen = lastSeen, seen >= 0, seen < comments.count else { return nil }
        while seen >= 0, !comments.isGap(at: seen), let comment = comments.comment(at: seen) {
            if delivery(comment.id) == nil { return ReadMarker(commentID: comment.id, position: seen) }
            seen -= 1
        }
        return nil
    }

    /// Sets the first unread comment from a saved marker, if it still names the same comment.
    /// `awaitsCatchUp`: comments written before this opening are still coming (a source opened
    /// from an offline copy), so a marker on the newest comment still has unread ones after it.
    /// A marker at position -1 is older than every comment loaded: all of them are unread; with
    /// an id it is looked for in the older pages as they come, without one it stands just above.
    func restore(_ marker: ReadMarker?, awaitsCatchUp: Bool = false) {
        if let marker, marker.position < 0 {
            lastSeen = -1
            seenAhead = IndexSet()
            markerAboveLoaded = marker.commentID.isEmpty ? nil : marker.commentID
            markerAboveNextPage = false
            firstUnread = firstUnread(after: -1)
            awaitsUnread = awaitsCatchUp && firstUnread == nil
            return invalidateLayouts()
        }
        guard let marker, marker.position < comments.count,
              let comment = comments.comment(at: marker.position), comment.id == marker.commentID else { return }
        lastSeen = marker.position
        seenAhead = IndexSet()
        firstUnread = firstUnread(after: marker.position)
        awaitsUnread = awaitsCatchUp && firstUnread == nil
        advanceReadPoint()
        invalidateLayouts()
    }

    /// Comments that were written before the opening arrived at `index` (a catch-up): the first
    /// unread, if the marker was on the newest comment when the thread opened.
    func unreadArrived(at index: Int) {
        guard awaitsUnread, firstUnread == nil, index < comments.count else { return }
        firstUnread = index
        invalidateLayouts()
    }

    /// Everything written before the opening is here: the divider settles (past the reader's
    /// own comments that came with the catch-up).
    func catchUpEnded() {
        awaitsUnread = false
        if let first = firstUnread { firstUnread = firstUnread(after: first - 1) }
        advanceReadPoint()
        invalidateLayouts()
    }

    /// Takes the comments a shown frame had on screen, and moves the read point over them where
    /// they join it.
    func markSeen(_ shown: ClosedRange<Int>?) {
        guard let shown else { return }
        guard let seen = lastSeen else {
            // No marker: nothing is known of what was read before, so reading starts here (on
            // the newest shown in the thread: not one of the reader's still on its way).
            var last = shown.upperBound
            while last >= shown.lowerBound, isOnItsWay(last) { last -= 1 }
            if last >= shown.lowerBound { lastSeen = last }
            return
        }
        guard shown.upperBound > seen else { return }
        for index in max(seen + 1, shown.lowerBound)...shown.upperBound where !comments.isGap(at: index) && !isOnItsWay(index) {
            seenAhead.insert(index)
        }
        advanceReadPoint()
    }

    /// Moves the read point over each next comment that was seen or is the reader's own; stops
    /// at a gap (its comments were never shown), at one not seen, and at one of the reader's
    /// still on its way or refused: comments that arrive go in above those, so a read point on
    /// or past one would move past them unseen.
    func advanceReadPoint() {
        // Comments older than the loaded ones may be unread too: not past them unseen.
        guard var seen = lastSeen, markerAboveLoaded == nil || !comments.hasOlder else { return }
        while seen + 1 < comments.count, !comments.isGap(at: seen + 1), !isOnItsWay(seen + 1),
              seenAhead.contains(seen + 1) || isOwnInThread(seen + 1) {
            seen += 1
        }
        if seen != lastSeen { lastSeen = seen }
        if let first = seenAhead.first, first <= seen { seenAhead.remove(integersIn: first...seen) }
    }

    /// The source found the marker, older than the loaded comments, in the older page it
    /// reports next: after the comment `commentID` there, or above all of that page (nil).
    func readMarkerInNextPage(after commentID: String?) {
        guard markerAboveLoaded != nil else { return }
        if let commentID { markerAboveLoaded = commentID } else { markerAboveNextPage = true }
    }

    /// Another client moved the marker on the server while the thread was closed, to the
    /// comment at `position`: read up to it, and the divider after it, if that is forward.
    func readMarkerMovedElsewhere(to position: Int) {
        guard position > (lastSeen ?? -1), position < comments.count, !isOnItsWay(position) else { return }
        lastSeen = position
        markerAboveLoaded = nil
        markerAboveNextPage = false
        seenAhead.remove(integersIn: 0...position)
        if let first = firstUnread, first <= position { firstUnread = firstUnread(after: position) }
        if firstUnread == nil, !awaitsUnread { firstUnread = firstUnread(after: position) }
        advanceReadPoint()
        invalidateLayouts()
    }

    /// Older comments were loaded above the first: positions move; a marker older than the
    /// loaded comments is looked for among them (until it is found, the divider stays on top).
    func readMarkerCommentsPrepended(_ count: Int) {
        seenAhead.shift(startingAt: 0, by: count)
        guard let id = markerAboveLoaded else {
            firstUnread = firstUnread.map { $0 + count }
            lastSeen = lastSeen.map { $0 + count }
            return
        }
        let found = markerAboveNextPage ? -1 : (0..<count).first { index in
            if let comment = comments.comment(at: index) { comment.id == id } else { false }
        }
        guard let found else { return }
        markerAboveLoaded = nil
        markerAboveNextPage = false
        lastSeen = found
        if firstUnread == 0 { firstUnread = firstUnread(after: found) } else { firstUnread = firstUnread.map { $0 + count } }
        advanceReadPoint()
    }

    /// The first comment after `position` that is not the reader's own, past the last of theirs
    /// (within `ownCommentScan`; those on their way too); nil when there is none.
    private func firstUnread(after position: Int) -> Int? {
        let end = min(comments.count, position + 1 + Self.ownCommentScan)
        guard position + 1 < end else { return nil }
        var first = position + 1
        for index in first..<end where isOwn(index) { first = index + 1 }
        return first < comments.count ? first : nil
    }

    /// Whether the comment at `index` is the reader's and in the thread (not still on its way).
    private func isOwnInThread(_ index: Int) -> Bool {
        isOwn(index) && !isOnItsWay(index)
    }

    /// Whether the comment at `index` is the reader's, in the thread or on its way.
    private func isOwn(_ index: Int) -> Bool {
        guard let comment = comments.comment(at: index) else { return false }
        return comment.author == me
    }

    /// Whether the comment at `index` has a delivery state (sending, or refused): not in the thread.
    private func isOnItsWay(_ index: Int) -> Bool {
        guard let comment = comments.comment(at: index) else { return false }
        return delivery(comment.id) != nil
    }
}
