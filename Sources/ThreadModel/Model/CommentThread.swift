import Foundation

/// A post and its comments, with the users who take part.
public struct CommentThread: Sendable {
    public var id: String
    public var title: String
    /// The author's user id.
    public var author: String
    public var created: Date
    /// The post itself, Markdown.
    public var body: String
    /// Comments in the order they were posted.
    public private(set) var comments: [Comment]
    private var commentIDs: Set<String>
    /// The reactions to the comments (a file's `react` records, a room's `m.reaction`s).
    public var reactions = ReactionTally()
    private var usersByID: [String: User]

    public init(id: String, title: String, author: String, created: Date, body: String, users: [User] = [], comments: [Comment] = []) {
        self.id = id
        self.title = title
        self.author = author
        self.created = created
        self.body = body
        self.comments = comments
        commentIDs = Set(comments.map(\.id))
        usersByID = Dictionary(users.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// Every user, in id order.
    public var users: [User] { usersByID.values.sorted { $0.id < $1.id } }

    /// How many users the thread has (without sorting them, as `users` does).
    public var userCount: Int { usersByID.count }

    /// The user with an id, if known.
    public func user(id: String) -> User? { usersByID[id] }

    /// The user with a handle (case-insensitive), if known.
    public func user(handle: String) -> User? {
        usersByID.values.first { $0.handle.caseInsensitiveCompare(handle) == .orderedSame }
    }

    /// Adds or replaces a user.
    public mutating func add(_ user: User) { usersByID[user.id] = user }

    /// Appends a comment.
    public mutating func append(_ comment: Comment) {
        comments.append(comment)
        commentIDs.insert(comment.id)
    }

    /// Whether a comment with this id is in the thread.
    public func containsComment(id: String) -> Bool { commentIDs.contains(id) }

    /// A name to show for a user id, falling back to the id itself.
    func displayName(of userID: String) -> String { usersByID[userID]?.name ?? userID }
}

extension CommentThread {
    /// User ids by lowercased handle: handles are unique ignoring case, so `@Bob` mentions bob.
    /// Look up with `handle.lowercased()`; of two users whose handles clash, the first by id wins.
    public var userIDsByLowercasedHandle: [String: String] {
        var ids: [String: String] = [:]
        for user in users where ids[user.handle.lowercased()] == nil { ids[user.handle.lowercased()] = user.id }
        return ids
    }
}
