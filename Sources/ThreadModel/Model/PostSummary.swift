import Foundation

/// What a post's comments come to, shown under the post in the room's feed (a Matrix thread's
/// root and its `m.thread` replies): how many, who wrote the newest and when, and whether the
/// reader has read them.
public struct PostSummary: Hashable, Sendable {
    /// Replies in the post (never negative).
    public var replyCount: Int
    /// The newest reply's author (a user id) and their name as the room knows it: hostile text,
    /// made safe only where it is drawn.
    public var latestAuthor: String
    public var latestName: String
    /// When the newest reply was written.
    public var latestAt: Date
    /// Whether the post has replies the reader has not read.
    public var isUnread: Bool
    /// Of those, how many the server counts (notifications; 0 when it did not say) and how many
    /// mention the reader.
    public var unreadCount: Int
    public var mentionCount: Int

    public init(replyCount: Int, latestAuthor: String, latestName: String, latestAt: Date,
                isUnread: Bool = false, unreadCount: Int = 0, mentionCount: Int = 0) {
        self.replyCount = replyCount
        self.latestAuthor = latestAuthor
        self.latestName = latestName
        self.latestAt = latestAt
        self.isUnread = isUnread
        self.unreadCount = unreadCount
        self.mentionCount = mentionCount
    }
}
