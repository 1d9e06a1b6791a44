import Foundation
import ThreadModel

/// The taking back of a reaction of ours that may have reached the room without our knowing its
/// event (resumed from the outbox after a kill, or an attempt that went out unanswered): it is
/// not cancelled silently, which would leave it in the room while we show it gone. Kept in the
/// outbox before anything is done (a kill does not lose it), it finishes the send under the
/// reaction's own transaction id (the server answers with the event it has, or posts it) and
/// redacts that event.
struct ReactionTakeBack: Sendable {
    /// The taking back as kept in the outbox (`takesBack`: the reaction's transaction id).
    var entry: CommentOutbox.Entry
    /// Toggled on again before the redaction left: the send finishes and the reaction stays.
    var withdrawn = false
    /// The redaction is under way: a toggle now waits for it.
    var redacting = false
}

extension MatrixThreadSource {
    /// A toggle of `slot` while its taking back is pending (called locked): withdraws it, or
    /// renews a withdrawn one under a new record (the withdrawn one is discarded on disk); nil
    /// when there is none.
    func toggleTakeBack(_ slot: String, key: String) -> Result<ReactionPlan, ReactionRefusal>? {
        guard var pending = reactionTakeBacks[slot] else { return nil }
        if pending.redacting { return .failure(ReactionRefusal("\(key) is still on its way")) }
        pending.withdrawn.toggle()
        if pending.withdrawn {
            reactionTakeBacks[slot] = pending
            return .success(.withdraw(pending.entry.txn))
        }
        pending.entry.txn = "reaction-" + UUID().uuidString
        reactionTakeBacks[slot] = pending
        return .success(.send(pending.entry))
    }

    /// A kept taking back found in the outbox at opening: its reaction is not sent on its own.
    func resumeTakeBack(_ entry: CommentOutbox.Entry) {
        guard let target = entry.reactsTo, let reaction = entry.takesBack else { return }
        locked {
            let slot = Self.reactionSlot(target, entry.body)
            if queuedReactions[slot]?.txn == reaction { queuedReactions[slot] = nil }
            cancelledReactions.insert(reaction)
            reactionTakeBacks[slot] = ReactionTakeBack(entry: entry)
        }
        deliverReactionLater(entry)
    }

    /// Sends a reaction under `txn`; one the room has already (`M_DUPLICATE_ANNOTATION`: its
    /// transaction id forgotten, or sent by another of our devices) is that one, found by its relation.
    func sendReaction(target: String, key: String, txn: String) throws -> String {
        let relation: JSONValue = ["rel_type": "m.annotation", "event_id": .string(target), "key": .string(key)]
        do {
            // Held callers never get here: the room's switch was read just before.
            guard let event = try outgoing(["m.relates_to": relation], type: "m.reaction") else { throw MatrixEncryption.held }
            return try client.send(room: roomID, type: event.type, transactionID: txn, content: event.content, timeout: sendTimeout)
        } catch let error as MatrixError where error.errcode == "M_DUPLICATE_ANNOTATION" {
            guard let there = try client.annotation(room: roomID, target: target, key: key, sender: me) else { throw error }
            return there
        }
    }

    /// Finishes the reaction's send, then redacts it unless withdrawn meanwhile.
    func deliverTakeBack(_ entry: CommentOutbox.Entry) {
        guard let target = entry.reactsTo, let reaction = entry.takesBack else { return }
        let key = entry.body
        let slot = Self.reactionSlot(target, key)
        untilAnswered(refused: { reason in
            try? outbox?.discard(entry.txn)
            locked { if reactionTakeBacks[slot]?.entry.txn == entry.txn { reactionTakeBacks[slot] = nil } }
            report([.problem(ThreadProblem(.unknown, "your taking back of a reaction \(key) was not sent: \(reason.message)"))])
        }) {
            // Renewed under another record meanwhile: that one does it.
            if locked({ reactionTakeBacks[slot]?.entry.txn != entry.txn }) { return }
            if try holdsSending() {
                return report([.problem(ThreadProblem(.unknown, "your taking back of a reaction waits: " + MatrixEncryption.held.message))])
            }
            let id = try sendReaction(target: target, key: key, txn: reaction)
            try? outbox?.markSent(reaction, event: id)
            let step = locked { () -> (withdrawn: Bool, update: ThreadUpdate?)? in
                guard var pending = reactionTakeBacks[slot], pending.entry.txn == entry.txn else { return nil }
                if pending.withdrawn {
                    reactionTakeBacks[slot] = nil
                    return (true, timeline.react(eventID: id, MatrixReactions.Reaction(target: target, key: key, sender: me, at: Date())))
                }
                pending.redacting = true
                reactionTakeBacks[slot] = pending
                return (false, nil)
            }
            guard let step else { return }
            if step.withdrawn { return report(step.update.map { [$0] } ?? []) }
            try client.redact(room: roomID, eventID: id, transactionID: entry.txn)
            try? outbox?.markSent(entry.txn, event: id)
            let update = locked { () -> ThreadUpdate? in
                reactionTakeBacks[slot] = nil
                heardFrom = Date()
                return timeline.unreact(eventID: id)
            }
            report(update.map { [$0] } ?? [])
            connectionProven()
        }
    }
}

extension MatrixError {
    /// The request certainly did not reach the server: no connection (or no TLS) was made.
    var neverLeft: Bool { !timedOut && (transport == .unreachable || kind == .tls) }
}
