/// A thread opened from a link to one of its comments (a permalink to a message of a room, or
/// to a reply in a post): the app opens it with that comment on screen and selected.
public protocol LinkedComment: AnyObject {
    /// The comment the link named; nil when it named the thread alone.
    var linkedCommentID: String? { get }
    /// Why the link opens at no comment (it named something that is none); nil when it does.
    var linkedCommentNote: String? { get }
}

extension LinkedComment {
    public var linkedCommentNote: String? { nil }
}
