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
            if case .success(let comment) = comments.comment(at: index), deliveries[comment.id] == nil {
                let name = comments.user(id: comment.author)?.name ?? comment.author
                return (comment.body, name, comment.created)
            }
            index -= 1
        }
        return nil
    }

    /// Comments after the read marker.
    public var unreadCount: Int {
        guard let first = feed.firstUnread, first < comments.count else { return 0 }
        return comments.count - first
    }

    /// Of the unread comments, those that called for the reader as they arrived.
    public var unreadMentionCount: Int {
        guard let first = feed.firstUnread else {
            mentionArrivals.removeAll()
            return 0
        }
        mentionArrivals.removeAll { id in comments.index(ofComment: id).map { $0 < first } ?? true }
        return mentionArrivals.count
    }

    /// Whether the caret is at the end of the draft (nothing after it for Ctrl-K to kill).
    public var caretAtDraftEnd: Bool { composer.draft.caret == composer.draft.text.endIndex }

    /// Shows a line in the status bar (the client's words while this thread is on screen).
    public func showMessage(_ text: String, error: Bool = false) { overlays.show(text, error: error) }
}
