import Foundation
import ThreadModel

/// What home shows of an open thread: its title, newest comment and what is unread, as the
/// thread on screen knows them (a file's read marker; a room's counts come from its server).
extension CommentApp {
    /// The thread's title now (a room renamed, a file's header).
    public var currentTitle: String { comments.thread.title }

    /// The newest comment in the thread (ours on their way excepted), for home's preview.
    public var newestComment: (body: String, authorName: String, date: Date)? {
        var index = comments.count - 1
        while index >= 0, index >= comments.count - 50 {
            if let comment = comments.comment(at: index), deliveries[comment.id] == nil {
                let name = comments.user(id: comment.author)?.name ?? comment.author
                return (comment.body, name, comment.created)
            }
            index -= 1
        }
        return nil
    }

    /// Others' comments after the newest the reader has seen (counted among the newest 1,000).
    public var unreadCount: Int {
        let seen = feed.readMarker?.position ?? -1
        var count = 0
        for index in max(seen + 1, comments.count - 1_000)..<max(seen + 1, comments.count) {
            if let comment = comments.comment(at: index), comment.author != me.id { count += 1 }
        }
        return count
    }

    /// Of the unread comments, those that called for the reader as they arrived.
    public var unreadMentionCount: Int {
        let seen = feed.readMarker?.position ?? -1
        mentionArrivals.removeAll { id in comments.index(ofComment: id).map { $0 <= seen } ?? true }
        return mentionArrivals.count
    }

    /// Shows a line in the status bar (the client's words while this thread is on screen).
    public func showMessage(_ text: String, error: Bool = false) { overlays.show(text, error: error) }
}
