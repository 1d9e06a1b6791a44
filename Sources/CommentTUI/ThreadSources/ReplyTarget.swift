import ThreadModel

/// What a source found for a comment a reply answers (`ThreadSource.loadReplyTarget`).
public enum ReplyTarget: Sendable, Equatable {
    case comment(Comment)
    /// The server says it cannot be had (not found, or not visible to the reader): for good.
    case unavailable
    /// It could not be asked for now (no connection, a server error): asked again later.
    case unreachable
}
