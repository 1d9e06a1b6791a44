import Foundation
import ThreadModel

/// Where a thread lives, as the app and the verbs see it: a JSON Lines file, a room on a
/// homeserver, a thread in memory.
///
/// This is what every source has. What only some have (older pages, gaps, typing notices, read
/// receipts, a catch-up, reply targets, mentions by the source's own rules) are capabilities, each
/// its own protocol, reached through one accessor here that is nil for a source without it (a
/// source that adopts the capability's protocol answers with itself): the app asks for a
/// capability, never for a concrete source.
///
/// Calls come from the app's thread and never block on the network. A source that learns things
/// elsewhere (a sync loop on its own thread, a file another process appends to) queues them and
/// makes `updatesReady` readable; the loop polls that descriptor beside the terminal and then
/// calls `takeUpdates()`.
public protocol ThreadSource: AnyObject {
    /// A short name for the thread in the status bar and in messages (a file name, a room alias).
    var label: String { get }
    /// The thread's header and users as opened. Its `comments` are empty: they come by position
    /// from `openedComments` and, later, as updates.
    var thread: CommentThread { get }
    /// The comments known when the thread was opened, oldest first, decoded on demand.
    var openedComments: CommentStore { get }
    /// Problems found while opening (lines that did not read), for the status bar.
    var openingProblems: [ThreadFileProblem] { get }
    /// Whether what is sent is kept nowhere once the client ends (a thread in memory): "posted"
    /// says so.
    var keepsCommentsInMemoryOnly: Bool { get }

    /// Readable when updates wait; nil for a source that never changes after opening.
    ///
    /// Anything learned after opening makes it readable, so the loop needs no first call before
    /// it polls. It is the same descriptor for the source's life (the loop registers it once),
    /// and stays open after the source stops following; only `takeUpdates()` reads it.
    var updatesReady: FileDescriptor? { get }
    /// What changed since the last call, oldest first; never blocks. Empty after a wake that
    /// brought nothing new. Our own sent comments come back in `.commentsAppended` once the
    /// thread echoes them: the app skips comments whose id it already has.
    func takeUpdates() -> [ThreadUpdate]

    /// The reader's comments written before this run and not yet in the thread (an outbox kept
    /// across a crash or quitting offline), oldest first; they are on their way again, each
    /// ending in `.sendConfirmed` or `.sendFailed`.
    var unsentComments: [Comment] { get }
    /// Of `unsentComments`, those not on their way, and why, by id: refused for good before this
    /// run (or held back). They are not sent again until the reader retries them (`send` with
    /// the same comment), and go with `discardUnsent`.
    var notSentReasons: [String: SendFailure] { get }
    /// Where comments not in the thread yet wait between runs (an outbox), for the words at quit.
    var outboxPath: String? { get }

    /// Why the thread takes no comments for now (a room switched to end-to-end encryption), as
    /// the room's notice; nil when it takes them. Comments already on their way stay kept, held.
    /// A change later comes as `.sendingHeld`.
    var sendingHeld: String? { get }

    /// Whether the thread is end-to-end encrypted (the header says so, whether we can send or not).
    var isEndToEndEncrypted: Bool { get }

    /// Whether `userID`'s cryptographic identity changed since it was first seen (their comments
    /// say so, loudly: they may not be theirs). A change later comes as `.usersChanged`.
    func senderIdentityChanged(_ userID: String) -> Bool

    /// How far `userID` is trusted as a sender (`SenderTrust`); nil where there is nothing to
    /// say (a clear room). A change later comes as `.usersChanged`.
    func senderTrust(_ userID: String) -> SenderTrust?

    /// `userID`'s devices with their trust, as last read; nil where there is nothing to say.
    func memberDevices(_ userID: String) -> [MemberDevice]?

    /// Why the authenticity of a decrypted comment is weaker, in words (its key came from the
    /// key backup or was forwarded), for the comment's detail (F2); nil when there is nothing to say.
    func keyNote(of commentID: String) -> String?

    /// Whether a comment is a row the source made in place of what it cannot show (an encrypted
    /// event): the feed draws it in a style of its own, so that no message can pass for one.
    func isPlaceholder(_ commentID: String) -> Bool

    /// Sends a comment of the reader's. `.pending` promises a `.sendConfirmed` or `.sendFailed`
    /// update for the comment's id later.
    func send(_ comment: Comment) -> SendOutcome
    /// Sends a comment that answers another (Alt-R); a source without replies sends it plainly.
    func send(_ comment: Comment, inReplyTo parentID: String?) -> SendOutcome

    /// The read marker saved when the thread was last closed, if any; at position -1 when it is
    /// older than every comment opened (all of them unread): with an empty comment id when it
    /// stands just above them (nothing older is unread), else with an id older pages are
    /// searched for (a source may report `.readMarkerInOlder` as it finds it).
    func loadReadMarker() -> ReadMarker?
    /// Saves the read marker (at exit); a source with nowhere to keep it does nothing.
    func saveReadMarker(_ marker: ReadMarker) throws
    /// Where the reader's unsent draft of this thread is kept; nil keeps drafts in memory only.
    var draftFile: DraftFile? { get }
    /// Whether a comment with this id is in the thread as opened or on its way (`unsentComments`):
    /// a draft saved while being sent as it was sent.
    func containsComment(id: String) -> Bool
    /// The reader discarded a comment of theirs that was not sent (or took it back into the
    /// draft): it is forgotten here and never sent.
    func discardUnsent(id: String)
    /// At quit: takes back the reader's comments the source will not deliver once the client is
    /// gone (a file's appends still waiting for its lock, or failed), oldest first, so the app
    /// keeps them as the draft. None of them is sent after this returns. A source that keeps
    /// unsent comments itself (an outbox) returns none.
    func withdrawUnsent() -> [Comment]
    /// Stops following and keeps what should outlive the client (a room's offline copy), at exit.
    func close()
    /// The reader is `reader` now (the file was replaced by one that knows them by another id,
    /// or, `introducing`, not at all): their comments not sent yet go under the new id, and with
    /// `introducing` the next one written carries their user record. A room knows its members.
    func readerChanged(from oldID: String, to reader: User, introducing: Bool)

    /// Older comments on request; nil: the thread opens whole.
    var olderPages: OlderPages? { get }
    /// Comments missing at a reported gap, on request; nil: it never reports a gap.
    var gapFilling: GapFilling? { get }
    /// Telling others the reader is typing; nil: no one is told.
    var typingNotices: TypingNotices? { get }
    /// Moving the read marker as the reader reads; nil: it is only saved at exit.
    var readReceipts: ReadReceipts? { get }
    /// A catch-up after the opening; nil: everything written before the opening is there at once.
    var catchingUp: CatchingUp? { get }
    /// Fetching reply targets, and the post as a comment; nil: replies answer loaded comments only.
    var replyTargets: ReplyTargets? { get }
    /// The reader's reactions to comments, if the thread takes them.
    var reacting: Reacting? { get }
    /// Mentions by the source's own rules; nil: the body's `@handle`s alone call for the reader.
    var readerMentions: ReaderMentions? { get }
}

extension ThreadSource {
    public func send(_ comment: Comment, inReplyTo parentID: String?) -> SendOutcome { send(comment) }
    public var keepsCommentsInMemoryOnly: Bool { false }
    public var unsentComments: [Comment] { [] }
    public var sendingHeld: String? { nil }
    public var isEndToEndEncrypted: Bool { false }
    public func senderIdentityChanged(_ userID: String) -> Bool { false }
    public func senderTrust(_ userID: String) -> SenderTrust? { nil }
    public func memberDevices(_ userID: String) -> [MemberDevice]? { nil }
    public func keyNote(of commentID: String) -> String? { nil }
    public var notSentReasons: [String: SendFailure] { [:] }
    public var outboxPath: String? { nil }
    public func discardUnsent(id: String) {}
    public func isPlaceholder(_ commentID: String) -> Bool { false }
    public func containsComment(id: String) -> Bool { unsentComments.contains { $0.id == id } }
    public func withdrawUnsent() -> [Comment] { [] }
    public func close() {}
    public func readerChanged(from oldID: String, to reader: User, introducing: Bool) {}

    public var olderPages: OlderPages? { nil }
    public var gapFilling: GapFilling? { nil }
    public var typingNotices: TypingNotices? { nil }
    public var readReceipts: ReadReceipts? { nil }
    public var catchingUp: CatchingUp? { nil }
    public var replyTargets: ReplyTargets? { nil }
    public var reacting: Reacting? { nil }
    public var readerMentions: ReaderMentions? { nil }
}

// A source that adopts a capability's protocol answers its accessor with itself.
extension ThreadSource where Self: OlderPages { public var olderPages: OlderPages? { self } }
extension ThreadSource where Self: GapFilling { public var gapFilling: GapFilling? { self } }
extension ThreadSource where Self: TypingNotices { public var typingNotices: TypingNotices? { self } }
extension ThreadSource where Self: ReadReceipts { public var readReceipts: ReadReceipts? { self } }
extension ThreadSource where Self: CatchingUp { public var catchingUp: CatchingUp? { self } }
extension ThreadSource where Self: ReplyTargets { public var replyTargets: ReplyTargets? { self } }
extension ThreadSource where Self: Reacting { public var reacting: Reacting? { self } }
extension ThreadSource where Self: ReaderMentions { public var readerMentions: ReaderMentions? { self } }

/// A change a thread source reports after opening.
public enum ThreadUpdate: Sendable {
    /// Comments written after the newest known one, oldest first (others' and, once echoed, ours).
    case commentsAppended([Comment])
    /// Comments older than the oldest known one, oldest first, answering `OlderPages.loadOlderComments()`.
    case olderComments([Comment], hasMore: Bool)
    /// Comments are missing after the newest known one, before those appended next (a server
    /// skipped them while we were away): the feed marks the place, and `GapFilling.fillGap(id)` asks for them.
    case gap(id: String)
    /// Comments that were missing at a gap, oldest first, answering `GapFilling.fillGap(id)`; `closed` when
    /// none are missing there any more, else the gap stays, above them.
    case gapFilled(id: String, comments: [Comment], closed: Bool)
    /// A comment's new text (an edit); the comment keeps its id and place.
    case commentEdited(Comment)
    /// An edit or deletion of a comment read as its own record (a thread file's): the app
    /// applies it to the comment it names, if its author made it.
    case commentChanged(CommentChange)
    /// The reactions to a comment now, by key (empty: none left). Drawn under its text, which
    /// is not laid out again; may name a comment not loaded yet (it shows them once it is).
    case reactionsChanged(commentID: String, [ReactionCount])
    /// A comment's reactions as they were when it was read (the opening, an older page, the
    /// offline copy): shown as `reactionsChanged` is, without the effect of a live change.
    case reactionsKnown(commentID: String, [ReactionCount])
    /// A post's summary under its root (a Matrix thread's replies: how many, the newest, unread;
    /// nil: none). Drawn under the root's text, which is not laid out again; may name a comment
    /// not loaded yet (it shows once it is).
    case postSummaryChanged(commentID: String, PostSummary?)
    /// Users who joined or changed their name or handle.
    case usersChanged([User])
    /// Members who joined (again) or left a room, by user id: those who left keep their
    /// comments and names but are not offered as mentions.
    case membersChanged(joined: [String], left: [String])
    /// The thread's title or post changed (a room renamed, a new post pinned).
    case headerChanged(title: String, body: String)
    /// A comment a reply answers, asked for with `ReplyTargets.loadReplyTarget(id)`, or why it is not there.
    case replyTargetLoaded(id: String, target: ReplyTarget)
    /// The thread was read again from its start (its file was replaced, cut or created anew by
    /// another program): `thread` and `openedComments` hold it now, and every comment known
    /// before is gone. The text says what happened, for the status bar.
    case reopened(String)
    /// A `.pending` comment reached the thread.
    case sendConfirmed(commentID: String)
    /// A `.pending` comment could not be sent, and why: it stays, not sent, until the reader
    /// retries, takes back or discards it.
    case sendFailed(commentID: String, reason: SendFailure)
    /// Something went wrong that the reader should know of (a line that did not read, a
    /// connection lost), worded for the status bar; the source carries on where it can. A source
    /// that cannot carry on says so once ("stopped following: …") and then stays quiet.
    case problem(ThreadProblem)
    /// The connection to a thread on a server changed (a file source never reports one).
    case connection(ConnectionState)
    /// Who else is typing now (user ids), replacing the last list.
    case typing([String])
    /// The thread stopped taking comments (`ThreadSource.sendingHeld`): the notice to show.
    /// New comments are refused, and those on their way end in `.sendFailed`, kept by the source.
    case sendingHeld(String)
    /// Every comment written before the thread was opened has been reported (a source that
    /// was `CatchingUp.isCatchingUp`, after its first sync); those after come while the reader is here.
    case caughtUp
    /// The read marker, older than the comments loaded, is in the older page reported next
    /// (`.olderComments`): after the comment with this id, or above all of them (nil).
    case readMarkerInOlder(after: String?)
    /// The read marker was moved on the server by another client while the thread was closed:
    /// it stands after this comment now (reported before `.caughtUp`; only ever a move forward).
    case readMarkerMovedElsewhere(after: String)
}

/// How a thread on a server is connected, as the status bar says it.
public enum ConnectionState: Equatable, Sendable, CustomStringConvertible {
    case connecting
    case live
    /// Lost; the next attempt is in `retryIn` seconds.
    case offline(retryIn: Int)
    /// A request for news is overdue: the server said nothing new in time, or its answer is
    /// coming too slowly (it ends at its deadline, and the status then says offline).
    case stalled
    /// The server asked for a pause (429): nothing is asked of it for `retryIn` seconds.
    case rateLimited(retryIn: Int)

    public var description: String {
        switch self {
        case .connecting: "connecting"
        case .live: "live"
        case .offline(let seconds): "offline — retrying in \(seconds) s"
        case .stalled: "stalled — the server is slow to answer"
        case .rateLimited(let seconds): "rate limited — retrying in \(seconds) s"
        }
    }

    /// The state alone (`offline`), for a row with no room for the rest.
    public var word: String {
        switch self {
        case .connecting: "connecting"
        case .live: "live"
        case .offline: "offline"
        case .stalled: "stalled"
        case .rateLimited: "rate limited"
        }
    }
}

/// What became of a comment handed to `ThreadSource.send`.
public enum SendOutcome: Equatable, Sendable {
    /// It is in the thread.
    case confirmed
    /// It is on its way; an update says how it ended.
    case pending
    /// It was not sent (the draft stays), and why.
    case failed(SendFailure)
}
