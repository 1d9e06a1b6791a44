/// A comment that came for one of the reader's threads, as the notification policy weighs it.
///
/// Names and text are as the source gave them, unescaped: `TerminalNotification` makes them safe
/// for the escape that carries them.
public struct NotificationArrival: Equatable, Sendable {
    /// Which thread it came to.
    public var thread: ThreadKey
    /// The thread's name (a room's name, a file's title): the notification's title.
    public var threadName: String
    /// Who wrote it, as they are named.
    public var authorName: String
    /// Its text as plain words (spoilers already masked), nil when it cannot be read (encrypted).
    public var text: String?
    /// It calls for the reader: a mention, a highlight by the room's push rules.
    public var callsForReader: Bool
    /// It came to a direct room, where every comment is for the reader.
    public var isDirect: Bool
    /// The room is not public, or end-to-end encrypted: its text never leaves in a notification.
    public var isPrivate: Bool
    /// The thread is the one on screen.
    public var isOnScreen: Bool
    /// The terminal has the desktop's focus (as its focus reports last said; true when it never said).
    public var terminalFocused: Bool

    public init(thread: ThreadKey, threadName: String, authorName: String, text: String?, callsForReader: Bool,
                isDirect: Bool = false, isPrivate: Bool = false, isOnScreen: Bool, terminalFocused: Bool) {
        self.thread = thread
        self.threadName = threadName
        self.authorName = authorName
        self.text = text
        self.callsForReader = callsForReader
        self.isDirect = isDirect
        self.isPrivate = isPrivate
        self.isOnScreen = isOnScreen
        self.terminalFocused = terminalFocused
    }
}
