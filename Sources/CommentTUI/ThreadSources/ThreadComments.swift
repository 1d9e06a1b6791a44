import ThreadModel

/// The thread as the app holds it: header and users, and every comment known by position as
/// one collection — pages loaded older than the opened ones (kept in a temporary file, so paging
/// through a huge room holds a window in memory, not the room), the opened ones (decoded on
/// demand from the source's store), then those that arrived or were sent since.
///
/// Positions count from the oldest known comment, so loading older comments shifts them: the
/// feed is told by how much (`prepend`), and keeps its reading position.
final class ThreadComments {
    /// Header and users; its `comments` hold those added after opening.
    private(set) var thread: CommentThread
    private let opened: CommentStore
    private let older = SpilledComments()
    /// Whether the source has comments older than the oldest known.
    private(set) var hasOlder: Bool
    /// User ids by lowercased handle, for the mentions in comment bodies.
    private var userIDsByHandle: [String: String] = [:]
    /// Edited comments by id: read over whatever the position holds.
    private var edits: [String: Comment] = [:]

    init(thread: CommentThread, opened: CommentStore, hasOlder: Bool) {
        self.thread = thread
        self.opened = opened
        self.hasOlder = hasOlder
        indexHandles()
    }

    /// Comments known now.
    var count: Int { older.count + opened.commentCount + thread.comments.count }

    /// Comments held in memory: all but the older pages kept in the temporary file.
    var countInMemory: Int { older.countInMemory + opened.commentCount + thread.comments.count }

    /// The comment at a position, or why its line did not read.
    func comment(at index: Int) -> Result<Comment, ThreadFileProblem> {
        let found = unedited(at: index)
        guard !edits.isEmpty, case .success(let comment) = found, let edited = edits[comment.id] else { return found }
        return .success(edited)
    }

    private func unedited(at index: Int) -> Result<Comment, ThreadFileProblem> {
        if index < older.count { return older.comment(at: index) }
        let stored = index - older.count
        if stored < opened.commentCount { return opened.comment(at: stored) }
        return .success(thread.comments[stored - opened.commentCount])
    }

    /// The user with an id, if known.
    func user(id: String) -> User? { thread.user(id: id) }

    /// The id of the user with a handle, ignoring case.
    func handleID(_ handle: String) -> String? { userIDsByHandle[handle.lowercased()] }

    /// Whether a comment that arrived after opening has this id (the file echoes our own posts).
    func containsAdded(id: String) -> Bool { thread.containsComment(id: id) }

    /// The position of a comment that arrived or was sent after opening.
    func indexOfAdded(id: String) -> Int? {
        guard thread.containsComment(id: id), let last = thread.comments.lastIndex(where: { $0.id == id }) else { return nil }
        return older.count + opened.commentCount + last
    }

    /// Adds comments after the newest.
    func append(_ comment: Comment) { thread.append(comment) }

    /// Adds comments older than the oldest known, oldest first.
    func prepend(_ comments: [Comment], hasMore: Bool) {
        older.prepend(comments)
        hasOlder = hasMore
    }

    /// Shows a comment's new text wherever it is (an edit keeps the comment's id and place).
    func replace(_ edited: Comment) {
        edits[edited.id] = edited
    }

    /// Adds or replaces users; handles are indexed again.
    func add(_ users: [User]) {
        for user in users { thread.add(user) }
        indexHandles()
    }

    private func indexHandles() {
        userIDsByHandle = thread.userIDsByLowercasedHandle
    }
}
