import Foundation
import ThreadModel

/// An import's reactions: the reactions standing in the file go to the imported comments as
/// `m.reaction`s, each once, run again or not.
extension MatrixThreadSource {
    /// Sends the reactions standing in `thread` to the comments' events (`events`, by file
    /// comment id), oldest comment first; returns how many were sent. With an application
    /// service's token each person reacts as their own user, as their comments are posted;
    /// without, the importing account reacts once per comment and key (a room counts one
    /// reaction per person and key). Those the room has already (`present`) are not sent again,
    /// and each goes under a transaction id made from the file's ids.
    func importReactions(of thread: CommentThread, to events: [String: String], present: Set<String>,
                         appServiceToken: String?, authors: inout [String: MatrixClient]) throws -> Int {
        var sent = 0
        var done = present
        for reaction in thread.reactions.standing(inOrderOf: thread.comments.map(\.id)) {
            guard let target = events[reaction.comment] else { continue }
            var poster = client
            var sender = me
            if let appServiceToken {
                let author = thread.user(id: reaction.author) ?? User(id: reaction.author, handle: "unknown", name: reaction.author)
                if authors[author.id] == nil { authors[author.id] = try virtualAuthor(author, token: appServiceToken) }
                if let acting = authors[author.id] { poster = acting }
                sender = poster.assertedUser ?? me
            }
            guard done.insert(ImportedSoFar.slot(target, reaction.key, sender)).inserted else { continue }
            if try encryptionSettings() != nil {
                throw MatrixError(.server(status: 0, errcode: nil), MatrixEncryption.refusal.message + "; the import stopped before its reactions")
            }
            let relation: JSONValue = ["rel_type": "m.annotation", "event_id": .string(target), "key": .string(reaction.key)]
            let txn = "import" + ThreadStateFiles.stem(key: "\(thread.id)/\(reaction.comment)/\(reaction.author)/\(reaction.key)", name: "")
            _ = try poster.send(room: roomID, type: "m.reaction", transactionID: txn, content: ["m.relates_to": relation],
                                timestamp: appServiceToken == nil ? nil : reaction.created)
            sent += 1
        }
        return sent
    }

    /// The reactions to `comments` as the room's events counted them, in canonical order
    /// (`MatrixReactions.exportOrder`), under the comments' ids: what `export` writes as `react` records.
    func reactionTally(of comments: [Comment]) -> ReactionTally {
        locked {
            let events = comments.compactMap { comment in timeline.eventID(forComment: comment.id).map { (event: $0, id: comment.id) } }
            var tally = ReactionTally()
            let found = timeline.reactions.reactions(to: Set(events.map(\.event)))
            for change in MatrixReactions.exportOrder(found, comments: events) { tally.apply(change) }
            return tally
        }
    }
}
