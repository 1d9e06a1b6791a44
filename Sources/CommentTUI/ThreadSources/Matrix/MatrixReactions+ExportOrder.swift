import Foundation
import ThreadModel

/// The order `export` writes a room's reactions in, so the same reactions always make the same
/// file (canonical): by time, then the comment's place in the thread, the key, the sender and
/// the event id (ties in time are common: a second's reactions, an import's batch).
extension MatrixReactions {
    /// `found`'s reactions to the comments (`comment` by event id, in thread order), as
    /// `react` changes in canonical order; keys a file could not hold are left out.
    static func exportOrder(_ found: [(eventID: String, reaction: Reaction)], comments: [(event: String, id: String)]) -> [ReactionChange] {
        var position: [String: (place: Int, id: String)] = [:]
        for (place, comment) in comments.enumerated() where position[comment.event] == nil {
            position[comment.event] = (place, comment.id)
        }
        let kept = found.compactMap { item -> (place: Int, eventID: String, change: ReactionChange)? in
            guard let comment = position[item.reaction.target], ReactionChange.keyProblem(item.reaction.key) == nil else { return nil }
            let reaction = item.reaction
            return (comment.place, item.eventID,
                    ReactionChange(comment: comment.id, author: reaction.sender, created: reaction.at, key: reaction.key))
        }
        return kept.sorted { a, b in
            if a.change.created != b.change.created { return a.change.created < b.change.created }
            if a.place != b.place { return a.place < b.place }
            if a.change.key != b.change.key { return a.change.key.utf8.lexicographicallyPrecedes(b.change.key.utf8) }
            if a.change.author != b.change.author { return a.change.author.utf8.lexicographicallyPrecedes(b.change.author.utf8) }
            return a.eventID.utf8.lexicographicallyPrecedes(b.eventID.utf8)
        }.map(\.change)
    }
}
