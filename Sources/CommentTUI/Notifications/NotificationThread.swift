/// Which thread the app shows, as a notification speaks of it: set by whoever opens it (the
/// launcher; the coordinator from its summaries).
public struct NotificationThread: Equatable, Sendable {
    public var key: ThreadKey
    /// A direct room: every comment in it notifies.
    public var isDirect: Bool
    /// Not a public room: its text never leaves in a notification (true until known otherwise).
    public var isPrivate: Bool

    public init(key: ThreadKey, isDirect: Bool = false, isPrivate: Bool = true) {
        self.key = key
        self.isDirect = isDirect
        self.isPrivate = isPrivate
    }
}
