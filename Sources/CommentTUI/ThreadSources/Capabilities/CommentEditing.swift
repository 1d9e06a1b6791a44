import ThreadModel

/// Changing the reader's own comments after they were sent: an edit (a new body) or a deletion.
///
/// A thread file appends a record for the change; a room sends an `m.replace` edit or a
/// redaction. The app shows the change at once; the source's echo of it (a file's record read
/// back, a room's event in its sync) changes nothing more.
public protocol CommentEditing: AnyObject {
    /// Sends a change of `comment`, one of the reader's (the app only asks for their own), as
    /// shown before the change. Nil when it is written or on its way (kept until it is: it is
    /// not lost offline, nor sent twice); else why it was not.
    func change(_ change: CommentChange, of comment: Comment) -> SendFailure?
    /// Why the comment cannot be edited here (an edit would change its kind: a room's emote or
    /// media would become text), for the status bar; nil when it can.
    func editRefusal(of comment: Comment) -> String?
}

extension CommentEditing {
    /// Every comment of the reader's can be edited.
    public func editRefusal(of comment: Comment) -> String? { nil }
}

extension ThreadSource {
    /// Changing the reader's comments; nil: comments stay as sent.
    public var commentEditing: CommentEditing? { self as? CommentEditing }
}
