import ThreadModel

/// A source that knows more than a comment's body about whether it calls for the reader (a room
/// message's `m.mentions`, `@room`, the reader's display name by the room's push rules).
public protocol ReaderMentions: AnyObject {
    /// Whether a comment that just arrived calls for the reader by what the source alone knows;
    /// the app checks the body's mentions itself. Asked once per comment, as it arrives.
    func callsForReader(_ comment: Comment) -> Bool
}
