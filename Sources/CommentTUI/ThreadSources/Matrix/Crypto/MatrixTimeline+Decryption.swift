import Foundation
import ThreadModel

/// Decrypting in place: the rows of encrypted events whose key was missing are tried again when
/// keys came, and each one that opens becomes the comment it carried, as an edit of its row
/// (the same id, the same place: the view does not move). An encrypted edit or reaction that
/// opens applies to its target as a clear one would.
extension MatrixTimeline {
    /// The updates for the waiting events that decrypt now (none unless keys came since the
    /// last call), oldest first so an edit finds its comment.
    mutating func decryptWaiting() -> [ThreadUpdate] {
        guard var decryption, decryption.keysArrived() else { return [] }
        self.decryption = decryption
        let waiting = encryptedEvents.values.filter { $0.source != nil }.sorted { $0.created < $1.created }
        var updates: [ThreadUpdate] = []
        for encrypted in waiting {
            guard let source = encrypted.source else { continue }
            let (event, unreadable) = decryption.open(source)
            if let unreadable {
                // Still not readable, perhaps for another reason now (a withheld notice came).
                var updated = encrypted
                updated.unreadable = unreadable
                if !unreadable.waitsForKey { updated.source = nil }
                encryptedEvents[encrypted.eventID] = updated
                if updated.unreadable != encrypted.unreadable, placeholders.contains(encrypted.eventID) {
                    remember(updated.comment)
                    updates.append(.commentEdited(relabelled(updated.comment)))
                }
                continue
            }
            encryptedEvents[encrypted.eventID] = nil
            switch reader.read(event) {
            case .comment(let comment, _, _):
                guard placeholders.contains(comment.id) else { continue }
                placeholders.remove(comment.id)
                noteKind(of: event, id: comment.id)
                remember(comment)
                updates.append(.commentEdited(relabelled(comment)))
            case .edit(let target, let sender, let body, let at):
                if let edited = edit(target: target, sender: sender, body: body, at: at) { updates.append(.commentEdited(edited)) }
            case .reaction(let id, let reaction):
                if reactions.add(eventID: id, reaction) { updates.append(reactionsUpdate(of: reaction.target)) }
            default:
                continue
            }
        }
        return updates
    }

    /// The members again (`.usersChanged`, which lays every comment out anew) when a sender's
    /// identity changed since the last call, so their comments' headers say it.
    mutating func identityUpdates() -> [ThreadUpdate] {
        followMembers()
        guard var decryption, decryption.identitiesChanged() else { return [] }
        self.decryption = decryption
        return [.usersChanged(members.users)]
    }
}
