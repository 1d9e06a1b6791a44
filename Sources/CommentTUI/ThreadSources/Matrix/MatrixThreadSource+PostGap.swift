import Foundation
import ThreadModel

/// A gap in a post, and the offline copy of a post starting again, kept to the post's replies:
/// read with `/relations` (which takes a sync's `prev_batch` as its `from`, as well as its own
/// tokens), so a limited sync in a post never reads the room's events page by page, and its
/// older pages never walk the room back to its creation.
extension MatrixThreadSource {
    /// One page of the events missing at a gap, newest first, back from `token`, and where the
    /// page before starts (nil: nothing older). In a post: its replies, each bundled edit before
    /// its reply; in the room's feed: the room's events.
    func gapPage(from token: String, limit: Int) throws -> (events: [JSONValue], end: String?) {
        if let root = locked({ timeline.scope.root }) {
            let page = MatrixThreadPage(answer: try client.threadReplies(room: roomID, root: root, from: token, limit: limit), root: root)
            return (page.newestFirst, page.next)
        }
        let page = try client.messages(room: roomID, from: token, backwards: true, limit: limit)
        return (page.events, page.end)
    }

    /// Where the offline copy starts again at `token` (a sync's `prev_batch`, a gap's rest), as
    /// the copy keeps it (call locked): marked as a `/relations` token in a post.
    func restartToken(_ token: String) -> String {
        MatrixThreadPage.restartToken(token, inPost: timeline.scope.root != nil)
    }
}
