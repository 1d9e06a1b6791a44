import Foundation
import ThreadModel

/// The reader's reactions: an `m.reaction` with an `m.annotation` relation to add one, a
/// redaction of that event to take it back. Encrypted in an encrypted room, never sent there
/// without keys. Both go through
/// the outbox (`+ReactionOutbox`): one made offline is sent once the server is back, once.
extension MatrixThreadSource: Reacting {
    public func toggleReaction(_ key: String, on commentID: String) -> ReactionToggle {
        let plan = locked { () -> Result<ReactionPlan, ReactionRefusal> in
            if timeline.isEncrypted && timeline.decryption == nil { return .failure(ReactionRefusal(MatrixEncryption.notice)) }
            if isSignedOut { return .failure(ReactionRefusal("signed out: nothing is sent")) }
            guard let target = timeline.eventID(forComment: commentID) else {
                return .failure(ReactionRefusal("this comment is not in the room yet"))
            }
            let slot = Self.reactionSlot(target, key)
            // A taking back of one that may be in the room, not redacting yet: toggled again, it is
            // withdrawn (the send finishes and stays) or, withdrawn, renewed.
            if let toggled = toggleTakeBack(slot, key: key) { return toggled }
            if let queued = queuedReactions.removeValue(forKey: slot) {
                cancelledReactions.insert(queued.txn)
                // Never attempted: taken back before it leaves, it is never sent (nor redacted after).
                if !reactionsMaybeSent.contains(queued.txn) { return .success(.cancel(queued.txn)) }
                // It may be in the room: finished under its transaction id, then redacted.
                var takeBack = CommentOutbox.Entry(txn: "reaction-" + UUID().uuidString, author: me, created: Date(), body: key)
                takeBack.reactsTo = target
                takeBack.takesBack = queued.txn
                reactionTakeBacks[slot] = ReactionTakeBack(entry: takeBack)
                return .success(.send(takeBack))
            }
            // A taking back not answered yet: a second key would send the same again.
            guard reactionsOnTheirWay.insert(slot).inserted else {
                return .failure(ReactionRefusal("\(key) is still on its way"))
            }
            var entry = CommentOutbox.Entry(txn: "reaction-" + UUID().uuidString, author: me, created: Date(), body: key)
            entry.reactsTo = target
            entry.unreacts = timeline.reactions.event(target: target, key: key, sender: me)
            if entry.unreacts == nil {
                reactionsOnTheirWay.remove(slot)
                queuedReactions[slot] = entry
            }
            return .success(.send(entry))
        }
        let entry: CommentOutbox.Entry
        switch plan {
        case .failure(let refusal): return .refused(refusal.reason)
        case .success(.cancel(let txn)):
            try? outbox?.discard(txn)
            return .cancelled
        case .success(.withdraw(let txn)):
            try? outbox?.discard(txn)
            return .adding
        case .success(.send(let planned)): entry = planned
        }
        do {
            // On disk before the first attempt, as a comment is: a kill after it sends it at the next start.
            try outbox?.queue(entry)
        } catch where entry.takesBack != nil {
            // The taking back goes on all the same: the reaction may be in the room.
        } catch {
            locked {
                reactionsOnTheirWay.remove(Self.reactionSlot(entry.reactsTo ?? "", key))
                queuedReactions[Self.reactionSlot(entry.reactsTo ?? "", key)] = nil
            }
            return .refused("could not keep it in the outbox: \(error)")
        }
        deliverReactionLater(entry)
        return entry.unreacts == nil && entry.takesBack == nil ? .adding : .removing
    }

    /// Who reacted to a comment with each key, as the room's reactions count them.
    public func reactors(of commentID: String) -> [(key: String, authors: [String])] {
        locked {
            guard let target = timeline.eventID(forComment: commentID) else { return [] }
            return timeline.reactions.reactors(of: target).map { ($0.key, $0.senders) }
        }
    }

    /// What a toggle does: cancel a reaction not sent yet, withdraw a taking back not under way
    /// (both discarding that record), or send one (or its taking back).
    enum ReactionPlan {
        case cancel(String)
        case withdraw(String)
        case send(CommentOutbox.Entry)
    }
}

/// Why a reaction was not sent.
struct ReactionRefusal: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
