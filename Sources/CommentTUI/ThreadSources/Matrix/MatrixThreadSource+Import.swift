import Foundation
import ThreadModel

/// Importing a thread file into the room, once: each comment goes under a transaction id made
/// from the file's thread and comment ids, and comments the room already has (by their origin)
/// are skipped, so an import cut short and run again posts nothing twice. An edited comment is
/// posted as edited (its last text, and when, in its origin); a deleted one is left out.
extension MatrixThreadSource {
    /// How an import went.
    public struct ImportOutcome: Equatable, Sendable {
        public var posted: Int
        public var alreadyThere: Int
        /// Comments deleted in the file: left out (the room would show a deletion as nothing, and
        /// a redacted event loses the origin that keeps a second run from posting it again).
        public var deleted = 0
        /// Reactions sent to the imported comments (those the room had are not sent again).
        public var reactions = 0
    }

    /// Posts `thread`'s comments in order as the reader, each with its origin; `progress` hears
    /// of every comment posted. The room's encryption state is read before each comment (an
    /// import posts for minutes): switched on, the import stops there.
    /// - Parameter appServiceToken: an application service's token: each author then posts as a
    ///   user of its own (`@import_<handle>:server`, registered, named and joined on first use)
    ///   with the comment's original time.
    public func importComments(of thread: CommentThread, appServiceToken: String? = nil,
                               progress: (Int) -> Void = { _ in }) throws -> ImportOutcome {
        try refuseIfEncrypted()
        var authors: [String: MatrixClient] = [:]
        let present = try importedSoFar(thread: thread.id)
        var events = present.events
        var outcome = ImportOutcome(posted: 0, alreadyThere: 0)
        for comment in thread.comments {
            if comment.isDeleted {
                outcome.deleted += 1
                continue
            }
            if present.events[comment.id] != nil {
                outcome.alreadyThere += 1
                continue
            }
            let author = thread.user(id: comment.author) ?? User(id: comment.author, handle: "unknown", name: comment.author)
            var poster: MatrixClient?
            if let appServiceToken {
                if authors[author.id] == nil { authors[author.id] = try virtualAuthor(author, token: appServiceToken) }
                poster = authors[author.id]
            }
            let origin = MatrixImportOrigin(thread: thread.id, comment: comment, author: author, postedAsAuthor: poster != nil)
            guard case .object(var content) = JSONValue(foundation: MatrixMessageContent(
                markdown: comment.body, handles: { _ in nil }, displayName: { _ in nil }).json) else { continue }
            content[MatrixImportOrigin.key] = origin.json
            let txn = "import" + ThreadStateFiles.stem(key: "\(thread.id)/\(comment.id)", name: "")
            if try encryptionSettings() != nil {
                throw MatrixError(.server(status: 0, errcode: nil),
                                  MatrixEncryption.refusal.message + "; the import stopped after \(outcome.posted) of \(thread.comments.count) comments")
            }
            events[comment.id] = try (poster ?? client).send(room: roomID, transactionID: txn, content: .object(content),
                                                             timestamp: poster == nil ? nil : comment.created)
            outcome.posted += 1
            progress(outcome.posted)
        }
        outcome.reactions = try importReactions(of: thread, to: events, present: present.reactions,
                                                appServiceToken: appServiceToken, authors: &authors)
        return outcome
    }

    /// A client acting as the application service's user for `author`, in the room.
    func virtualAuthor(_ author: User, token: String) throws -> MatrixClient {
        let service = MatrixClient(homeserver: client.homeserver, accessToken: token)
        let server = MatrixMembers.server(of: try service.whoami())
        let localpart = "import_" + MatrixMembers.handleBase(author.handle).lowercased()
        try service.registerAppServiceUser(localpart: localpart)
        let userID = "@\(localpart):\(server)"
        let acting = MatrixClient(homeserver: client.homeserver, accessToken: token, assertedUser: userID)
        try acting.setDisplayName(author.name, of: userID)
        _ = try acting.join(roomID)
        return acting
    }

    /// What of `thread` the room holds already (read from every page): its comments' events by
    /// file comment id, and the reactions there (`ImportedSoFar.slot`); throws at a switch to
    /// encryption met on the way.
    private func importedSoFar(thread: String) throws -> ImportedSoFar {
        var found = ImportedSoFar()
        var from: String? = nil
        var first = true
        while first || from != nil {
            first = false
            let page = try client.messages(room: roomID, from: from, backwards: false, limit: 500,
                                           filter: ["types": ["m.room.message", "m.room.encryption", "m.reaction"]])
            for event in page.events {
                if event["type"]?.string == "m.room.encryption" { try refuseIfEncrypted(known: true) }
                if let id = event["event_id"]?.string, let origin = event["content"].flatMap(MatrixImportOrigin.init(content:)),
                   origin.thread == thread {
                    found.events[origin.comment] = found.events[origin.comment] ?? id
                }
                if event["type"]?.string == "m.reaction", let relation = event["content"]?["m.relates_to"],
                   let target = relation["event_id"]?.string, let key = relation["key"]?.string, let sender = event["sender"]?.string {
                    found.reactions.insert(ImportedSoFar.slot(target, key, sender))
                }
            }
            from = page.events.isEmpty ? nil : page.end
        }
        return found
    }
}

/// What a room holds of an import already.
struct ImportedSoFar {
    /// The event of each imported comment, by its file comment id.
    var events: [String: String] = [:]
    /// The reactions in the room, by `slot`.
    var reactions: Set<String> = []

    /// A reaction's place: its event, key and sender.
    static func slot(_ target: String, _ key: String, _ sender: String) -> String { target + "\u{0}" + key + "\u{0}" + sender }
}
