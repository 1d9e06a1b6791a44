/// A source that can fetch a comment a reply answers when it is not loaded, and whose post is a
/// comment replies may answer (a room's pinned message).
public protocol ReplyTargets: AnyObject {
    /// Fetches a comment a reply answers that is not loaded (`.replyTargetLoaded`).
    func loadReplyTarget(_ id: String)
    /// The id the post has as a comment, which replies may answer; nil when it has none.
    var postCommentID: String? { get }
}
