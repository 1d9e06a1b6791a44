import Foundation

/// One thread as home lists it: what a row shows, kept between runs in the home cache.
///
/// Everything here is as the thread's source or server said it, unescaped: a view escapes and
/// renders it (the preview like the feed renders a comment). Counts are the server's for rooms
/// (`unread_notifications`), the read marker's for files.
public struct ThreadSummary: Hashable, Codable, Sendable {
    public var key: ThreadKey
    /// The thread's name: a room's name (as the spec computes it), a file's title.
    public var name: String
    /// The newest comment's body as written (markup), nil when there is none yet.
    public var preview: String?
    /// Who wrote the newest comment, as they are named.
    public var author: String?
    /// When the newest comment was written (or the invite came): the list's order, newest first.
    public var activity: Date?
    /// Comments not read yet.
    public var unread: Int
    /// Of those, how many call for the reader (mentions, highlights).
    public var highlights: Int
    /// Others typing now, by name.
    public var typing: [String]
    /// The room is end-to-end encrypted: its comments cannot be read (yet).
    public var isEncrypted: Bool
    /// A direct room (in the account's `m.direct`).
    public var isDirect: Bool
    /// The room is not public (its join rule is not `public`): a notification names no text.
    public var isPrivate: Bool
    /// An invite not accepted yet, and who sent it (their name), when known.
    public var invite: Invite?
    /// The counts are not known yet (home's first window: its server gave none): shown as
    /// none, and the counts that come later are no news to notify.
    public var countsPending = false
    /// A post's replies (a Matrix thread's); nil for a thread that is no post.
    public var replies: Int?
    /// On a room's last post row: how many more posts the room has (`12`, `50+`); nil: none.
    public var morePosts: String?

    /// An invite to a room, from `inviter`.
    public struct Invite: Hashable, Codable, Sendable {
        public var inviter: String?
        public init(inviter: String?) { self.inviter = inviter }
    }

    public init(key: ThreadKey, name: String, preview: String? = nil, author: String? = nil, activity: Date? = nil,
                unread: Int = 0, highlights: Int = 0, typing: [String] = [], isEncrypted: Bool = false,
                isDirect: Bool = false, isPrivate: Bool = false, invite: Invite? = nil) {
        self.key = key
        self.name = name
        self.preview = preview
        self.author = author
        self.activity = activity
        self.unread = unread
        self.highlights = highlights
        self.typing = typing
        self.isEncrypted = isEncrypted
        self.isDirect = isDirect
        self.isPrivate = isPrivate
        self.invite = invite
    }
}
