import Foundation
import ThreadModel

/// A thread held in memory only: the demo of `render`, previews and tests. Sends succeed (or
/// fail, when `sendFailure` says so) and nothing is kept after the process ends.
public final class InMemoryThreadSource: ThreadSource {
    public let label: String
    public let thread: CommentThread
    public let openedComments: CommentStore
    public var openingProblems: [ThreadFileProblem] { [] }
    public var updatesReady: FileDescriptor? { nil }
    public var draftFile: DraftFile? { nil }
    public var keepsCommentsInMemoryOnly: Bool { true }
    /// Comments sent so far, in order.
    public private(set) var sent: [Comment] = []
    /// Decides whether a send fails, and why (nil: it succeeds).
    public var sendFailure: ((Comment) -> SendFailure?)?
    private var readMarker: ReadMarker?

    /// A source over `thread`; its comments become the opened ones.
    /// - Parameter store: comments before `thread.comments` (a big thread's index), if any.
    public init(thread: CommentThread, store: CommentStore? = nil, label: String) {
        // Without comments the thread is shared as it is (its users are not copied).
        self.thread = thread.comments.isEmpty ? thread
            : CommentThread(id: thread.id, title: thread.title, author: thread.author, created: thread.created,
                            body: thread.body, users: thread.users)
        self.label = label
        openedComments = ConcatenatedStore(first: store, then: thread.comments)
    }

    public func takeUpdates() -> [ThreadUpdate] { [] }

    public func send(_ comment: Comment) -> SendOutcome {
        if let reason = sendFailure?(comment) { return .failed(reason) }
        sent.append(comment)
        return .confirmed
    }

    public func loadReadMarker() -> ReadMarker? { readMarker }
    public func saveReadMarker(_ marker: ReadMarker) throws { readMarker = marker }
}

/// A store followed by comments in memory, read as one.
private final class ConcatenatedStore: CommentStore {
    private let first: CommentStore?
    private let then: [Comment]

    init(first: CommentStore?, then: [Comment]) {
        self.first = first
        self.then = then
    }

    var commentCount: Int { (first?.commentCount ?? 0) + then.count }

    var unreadableCount: Int { first?.unreadableCount ?? 0 }

    func unreadableCount(through position: Int) -> Int { first?.unreadableCount(through: position) ?? 0 }

    func comment(at index: Int) -> Result<Comment, ThreadFileProblem> {
        let stored = first?.commentCount ?? 0
        if index < stored, let first { return first.comment(at: index) }
        return .success(then[index - stored])
    }

    /// The store's own verdicts, within it.
    func searchVerdicts(for pattern: SearchPattern, below end: Int, atMost count: Int, maxBytes: Int,
                        leavingUndecided ids: Set<String>) -> SearchVerdicts? {
        guard let first, end <= first.commentCount else { return nil }
        return first.searchVerdicts(for: pattern, below: end, atMost: count, maxBytes: maxBytes, leavingUndecided: ids)
    }
}
