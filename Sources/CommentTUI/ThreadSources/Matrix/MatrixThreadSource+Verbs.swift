import Foundation
import ThreadModel

/// What the verbs do with a room, on the caller's thread: read all of it, post and wait.
extension MatrixThreadSource {
    /// Every comment from the room's start, oldest first, edits applied (pages back to the start).
    /// - Parameter pageLimit: at most this many pages are read (a bound for huge rooms).
    public func allComments(pageLimit: Int = 100_000) throws -> [Comment] {
        var older: [Comment] = []
        var (from, walk) = locked { (olderToken, olderWalk) }
        var pages = 0
        while let start = from, pages < pageLimit {
            let page = try olderPage(from: start, limit: 100)
            older = page.comments + older
            from = walk.page(from: start, gave: page.end)
            pages += 1
        }
        locked { (olderToken, olderWalk) = (from, walk) }
        // Edits seen while paging back apply to the comments already handed out too.
        let changed = locked { timeline.changed }
        return older + opened.comments.map { changed[$0.id] ?? $0 }
    }

    /// The members as thread users, after `allComments()` met the senders of old comments.
    public var users: [User] { locked { timeline.members.users } }

    /// Sends a comment and waits for the server's event id (the `post` verb).
    /// In an encrypted room it goes encrypted, or is refused without keys.
    public func post(_ body: String, transactionID: String) throws -> String {
        try post(content: locked { messageContent(body) }, transactionID: transactionID)
    }

    /// Sends a message of `content` and waits for the server's event id; encrypted as `post`.
    public func post(content: JSONValue, transactionID: String) throws -> String {
        guard let event = try outgoing(content) else {
            throw MatrixError(.server(status: 0, errcode: nil), MatrixEncryption.refusal.message + "; nothing was posted")
        }
        return try client.send(room: roomID, type: event.type, transactionID: transactionID, content: event.content)
    }
}
