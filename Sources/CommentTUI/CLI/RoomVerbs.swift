import Foundation
import ThreadModel

/// The verbs' room side: `new`, `post`, `render`, `check` and `export` given a room instead of a file.
enum RoomVerbs {
    /// `new matrix:#alias:server --title T [--body POST] [--encrypted]` (or `new matrix: …`
    /// without an alias): creates a room named T whose first message, pinned, is the post. With
    /// `--encrypted` the room is end-to-end encrypted from the start and the post goes encrypted;
    /// without it, a server that encrypts every new room gets the post encrypted too (never in
    /// the clear), or none when this device has no keys (the room is kept, the verb says so).
    static func create(_ locator: String, title: String, body: String?, encrypted: Bool, as userID: String?,
                       context: CommandContext) throws {
        let account = try RoomOpener.account(userID, context: context)
        guard let url = URL(string: account.homeserver) else { throw CommandFailure("the saved homeserver is not a URL; log in again") }
        var alias: String?
        if locator != "matrix:" {
            guard let address = try RoomOpener.address(locator), address.isAlias else {
                throw CommandFailure("new takes matrix:#alias:server (or matrix: for a room without an alias), not '\(VisibleText.escape(locator))'")
            }
            // An alias is made on our own server only: another server's would come out as
            // `#x:OURS`, a room nobody linking to `#x:OTHER` reaches.
            let ours = MatrixRoomAddress.server(ofUser: account.userID)
            guard address.isOnServer(ofUser: account.userID) else {
                throw CommandFailure("""
                    \(VisibleText.escape(address.identifier)) is an alias on \(VisibleText.escape(address.server)), and new makes rooms \
                    on your own server: use matrix:#\(VisibleText.escape(String(address.identifier.dropFirst().prefix { $0 != ":" }))):\(VisibleText.escape(ours))
                    """)
            }
            alias = String(address.identifier.dropFirst().prefix { $0 != ":" })
        }
        let client = MatrixClient(homeserver: url, accessToken: account.accessToken)
        do {
            let room = try client.createRoom(name: title, isPublic: alias != nil, alias: alias, encrypted: encrypted)
            if let body, !body.isEmpty {
                // Through the room's source: it encrypts where the room is encrypted, and never
                // posts there in the clear.
                let source = try RoomOpener.open(MatrixRoomAddress(identifier: room), as: account.userID, context: context, follows: false)
                defer { source.stop() }
                let post: String
                do {
                    post = try source.post(body, transactionID: ThreadFileWriter.newCommentID())
                } catch {
                    try context.print(VisibleText.escape(room))
                    let why = (error as? MatrixError)?.message ?? "\(error)"
                    throw CommandFailure("\(VisibleText.escape(room)): \(VisibleText.escape(why)); the room is kept")
                }
                try client.setState(room: room, type: "m.room.pinned_events", content: ["pinned": [.string(post)]])
            }
            try context.print(VisibleText.escape(room))
        } catch let error as MatrixError {
            throw CommandFailure(error.message)
        }
    }

    /// `post matrix:… --body TEXT`: sends and prints the event id.
    static func post(_ address: MatrixRoomAddress, body: String, as userID: String?, context: CommandContext) throws {
        let source = try RoomOpener.open(address, as: userID, context: context, follows: false)
        do {
            try context.print(VisibleText.escape(try source.post(body, transactionID: ThreadFileWriter.newCommentID())))
        } catch let error as MatrixError {
            throw CommandFailure("\(VisibleText.escape(address.identifier)): \(error.message)")
        }
    }

    /// The whole room as a thread in memory: for `render`, `check` and `export`.
    static func snapshot(_ address: MatrixRoomAddress, as userID: String?, context: CommandContext) throws -> (MatrixThreadSource, CommentThread) {
        let source = try RoomOpener.open(address, as: userID, context: context, follows: false)
        let comments: [Comment]
        do {
            comments = try source.allComments()
        } catch let error as MatrixError {
            throw CommandFailure("\(VisibleText.escape(address.identifier)): \(error.message)")
        }
        let head = source.thread
        var thread = CommentThread(id: head.id, title: head.title, author: head.author, created: head.created, body: head.body,
                                   users: source.users, comments: comments)
        thread.reactions = source.reactionTally(of: comments)
        return (source, thread)
    }

    /// `check matrix:…`: the events that could not be read, then a summary.
    static func check(_ address: MatrixRoomAddress, as userID: String?, context: CommandContext) throws -> Int32 {
        let (_, thread) = try snapshot(address, as: userID, context: context)
        let name = VisibleText.escape(address.identifier)
        let unreadable = thread.comments.filter { $0.body == MatrixEventReader.unreadable }
        for comment in unreadable {
            try context.print("\(name): event \(VisibleText.escape(comment.id)) by \(VisibleText.escape(comment.author)): not a message comment-tui can read")
        }
        let summary = CountText.of(thread.users.count, "user") + ", " + CountText.of(thread.comments.count, "comment")
        if unreadable.isEmpty {
            try context.print("\(name): ok, \(summary)")
            return 0
        }
        try context.print("\(name): \(CountText.of(unreadable.count, "unreadable event")), \(summary)")
        return 1
    }
}
