@testable import CommentTUI

/// An update in a line, for comparisons (ids and handles, not whole values).
func describe(_ update: ThreadUpdate) -> String {
    switch update {
    case .commentsAppended(let comments): "comments " + comments.map(\.id).joined(separator: " ")
    case .olderComments(let comments, let hasMore): "older " + comments.map(\.id).joined(separator: " ") + (hasMore ? " +" : "")
    case .gap(let id): "gap \(id)"
    case .gapFilled(let id, let comments, let closed): "filled \(id) " + comments.map(\.id).joined(separator: " ") + (closed ? "" : " +")
    case .commentEdited(let comment): "edited \(comment.id)"
    case .commentChanged(let change): "\(change.recordType) \(change.comment)"
    case .usersChanged(let users): "users " + users.map(\.handle).joined(separator: " ")
    case .reopened(let reason): "reopened: \(reason)"
    case .sendConfirmed(let id): "confirmed \(id)"
    case .sendFailed(let id, let reason): "failed \(id): \(reason)"
    case .problem(let message): "problem \(message)"
    case .connection(let state): "connection \(state)"
    case .typing(let users): "typing " + users.joined(separator: " ")
    case .sendingHeld(let notice): "held: \(notice)"
    case .membersChanged(let joined, let left): "members joined " + joined.joined(separator: " ") + " left " + left.joined(separator: " ")
    case .headerChanged(let title, _): "header " + title
    case .replyTargetLoaded(let id, let target): "reply target \(id) " + (target == .unavailable ? "missing" : target == .unreachable ? "unreachable" : "loaded")
    case .reactionsChanged(let id, let counts), .reactionsKnown(let id, let counts):
        "reactions \(id) " + counts.map { "\($0.key)\($0.count)\($0.includesMine ? "*" : "")" }.joined(separator: " ")
    case .postSummaryChanged(let id, let summary):
        "post \(id) " + (summary.map { "\($0.replyCount) \($0.latestAuthor)\($0.isUnread ? " unread \($0.unreadCount)" : "")" } ?? "none")
    case .caughtUp: "caught up"
    case .readMarkerInOlder(let id): "read marker in older after \(id ?? "none")"
    case .readMarkerMovedElsewhere(let id): "read marker moved elsewhere after \(id)"
    }
}
