/// A source that tells others whether the reader is typing (a room's typing notices).
public protocol TypingNotices: AnyObject {
    /// Whether the reader is typing in the composer (has text to send) now.
    func readerIsTyping(_ typing: Bool)
}
