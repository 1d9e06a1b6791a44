import CommentTUI
import Foundation
import ThreadModel

/// A source that learns things on another thread, as a homeserver's sync loop would: updates
/// are queued under a lock and the loop is woken through a `WakePipe`. Sends stay pending until
/// the test confirms or fails them; older pages come when the test delivers them.
public final class QueuedThreadSource: ThreadSource, OlderPages, GapFilling, CatchingUp, ReplyTargets, ReaderMentions, LinkedComment,
    @unchecked Sendable {
    public let label = "queued"
    public let thread: CommentThread
    public let openedComments: CommentStore
    public private(set) var hasOlderComments: Bool
    public let openingProblems: [ThreadFileProblem] = []
    public let draftFile: DraftFile? = nil
    /// Comments of the reader's an earlier run left unsent, oldest first, and why those refused
    /// were (set before the app opens).
    public var unsentComments: [Comment] = []
    public var notSentReasons: [String: SendFailure] = [:]
    /// Comments handed to `send`, in order.
    public private(set) var sent: [Comment] = []
    /// How many times the app asked for older comments.
    public private(set) var olderRequests = 0
    private let wake: WakePipe
    private let lock = NSLock()
    private var queue: [ThreadUpdate] = []

    /// The read marker it opens with.
    public let readMarker: ReadMarker?
    /// Senders' trust, by user id, as an encrypted room's keys would tell it (nil: none shown).
    public var trust: [String: SenderTrust] = [:]
    public func senderTrust(_ userID: String) -> SenderTrust? { trust[userID] }
    /// Members' devices, by user id, and whether the room is encrypted (the members' page needs it).
    public var devices: [String: [MemberDevice]] = [:]
    public func memberDevices(_ userID: String) -> [MemberDevice]? { devices[userID] }
    public var encrypted = false
    public var isEndToEndEncrypted: Bool { encrypted }

    /// A source whose thread opens with `thread`'s comments (the newest page), older ones to come
    /// when `hasOlder`; `readMarker` and `unsent` as a source opened after a close would have them.
    public init(thread: CommentThread, hasOlder: Bool = false, readMarker: ReadMarker? = nil, unsent: [Comment] = []) throws {
        self.readMarker = readMarker
        unsentComments = unsent
        self.thread = CommentThread(id: thread.id, title: thread.title, author: thread.author, created: thread.created,
                                    body: thread.body, users: thread.users)
        openedComments = InMemoryThreadSource(thread: thread, label: "opened").openedComments
        hasOlderComments = hasOlder
        wake = try WakePipe()
    }

    /// Queues an update from any thread, then wakes the loop (in that order, so none is missed).
    public func deliver(_ update: ThreadUpdate) {
        lock.withLock {
            queue.append(update)
            if case .olderComments(_, let hasMore) = update { hasOlderComments = hasMore }
        }
        wake.wake()
    }

    public var updatesReady: FileDescriptor? { wake.readEnd }

    public func takeUpdates() -> [ThreadUpdate] {
        // Drain first, then take: a wake after the take makes the pipe readable again.
        wake.drain()
        return lock.withLock {
            defer { queue = [] }
            return queue
        }
    }

    public func loadOlderComments() { lock.withLock { olderRequests += 1 } }
    /// The gaps asked for, in order.
    public private(set) var gapRequests: [String] = []
    public func fillGap(_ id: String) { lock.withLock { gapRequests.append(id) } }
    /// The reply targets asked for, in order.
    public private(set) var replyTargetRequests: [String] = []
    public func loadReplyTarget(_ id: String) { lock.withLock { replyTargetRequests.append(id) } }
    /// The post's id as a comment, for replies to it.
    public var postCommentID: String?
    public var openedAt: Date?
    /// Whether it opened from a copy and catches up (set before the app opens).
    public var isCatchingUp = false
    /// The comment a link named (set before the app opens).
    public var linkedCommentID: String?
    /// The comments `callsForReader` was asked about, in order.
    public private(set) var callsAsked: [String] = []
    public func callsForReader(_ comment: Comment) -> Bool { lock.withLock { callsAsked.append(comment.id) }; return false }

    public func send(_ comment: Comment) -> SendOutcome {
        lock.withLock { sent.append(comment) }
        return .pending
    }

    public func loadReadMarker() -> ReadMarker? { readMarker }
    public func saveReadMarker(_ marker: ReadMarker) throws {}
}
