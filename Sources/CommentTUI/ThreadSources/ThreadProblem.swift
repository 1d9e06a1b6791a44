/// Something that went wrong with a thread that the reader should know of (`ThreadUpdate.problem`):
/// what kind of problem, and the words for the status bar (`message`).
public struct ThreadProblem: Equatable, Sendable, KindedReason {
    /// What went wrong, as far as the source knows.
    public enum Kind: Equatable, Sendable {
        /// A line of the thread file did not read.
        case unreadableLine
        /// The source stopped following the thread (it says so once, then stays quiet).
        case stoppedFollowing
        /// The thread is not there for the reader any more (its file removed, the room left).
        case threadGone
        /// The server ended the session: nothing more is sent until the reader logs in again.
        case signedOut
        /// Comments asked for (an older page, those missing at a gap) could not be loaded.
        case notLoaded
        /// Something meant to outlive the client (the offline copy, the outbox) was not kept.
        case notKept
        /// Not known: words only.
        case unknown
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// The words for the status bar.
    public var message: String

    public static var unknownKind: Kind { .unknown }

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}
