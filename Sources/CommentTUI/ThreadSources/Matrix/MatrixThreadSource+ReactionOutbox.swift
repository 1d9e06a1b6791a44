import Foundation
import ThreadModel

/// Our reactions and their takings back on their way from the outbox: sent under the
/// transaction id they were kept with (a retry, or a resend after a kill, is one event), until
/// the server answers, however long it is away.
extension MatrixThreadSource {
    /// The key of a reaction of ours: the event it annotates, and its key.
    static func reactionSlot(_ target: String, _ key: String) -> String { target + "\u{0}" + key }

    /// A kept reaction (or its taking back) found in the outbox at opening: on its way again.
    func resendReaction(_ entry: CommentOutbox.Entry) {
        if entry.takesBack != nil { return resumeTakeBack(entry) }
        guard let target = entry.reactsTo else { return }
        let echoed = locked { () -> String? in
            let slot = Self.reactionSlot(target, entry.body)
            let ours = timeline.reactions.event(target: target, key: entry.body, sender: me)
            // In the room already (it reached the server before the last run ended): done.
            if entry.unreacts == nil, let ours { return ours }
            // It may have reached the server before the kill: taken back, it is redacted.
            reactionsMaybeSent.insert(entry.txn)
            if entry.unreacts == nil { queuedReactions[slot] = entry } else { reactionsOnTheirWay.insert(slot) }
            return nil
        }
        if let echoed { return (try? outbox?.markSent(entry.txn, event: echoed)) ?? () }
        deliverReactionLater(entry)
    }

    /// Sends a kept reaction on the send queue, after what was queued before it.
    func deliverReactionLater(_ entry: CommentOutbox.Entry) {
        sendQueue.async { [weak self] in
            if entry.takesBack != nil { self?.deliverTakeBack(entry) } else { self?.deliverReaction(entry) }
        }
    }

    /// Sends until the server accepts or refuses (`untilAnswered`); a reaction cancelled before
    /// an attempt is never sent. Applied once the server answers, before its echo (which then
    /// changes nothing).
    private func deliverReaction(_ entry: CommentOutbox.Entry) {
        guard let target = entry.reactsTo else { return }
        let key = entry.body
        let slot = Self.reactionSlot(target, key)
        let what = entry.unreacts == nil ? "reaction" : "taking back of a reaction"
        untilAnswered(refused: { reason in
            try? outbox?.discard(entry.txn)
            locked {
                reactionsOnTheirWay.remove(slot)
                if queuedReactions[slot]?.txn == entry.txn { queuedReactions[slot] = nil }
            }
            report([.problem(ThreadProblem(.unknown, "your \(what) \(key) was not sent: \(reason.message)"))])
        }) {
            // Cancelled before an attempt: never sent; else it may reach the server from here on
            // (and did, if it was so before this attempt: resumed, or sent out unanswered).
            let mark = locked { () -> (cancelled: Bool, markedBefore: Bool) in
                if cancelledReactions.remove(entry.txn) != nil { return (true, false) }
                return (false, entry.unreacts == nil && !reactionsMaybeSent.insert(entry.txn).inserted)
            }
            if mark.cancelled { return }
            let id: String
            do {
                // Held, it stays in the outbox for a client that can encrypt.
                if try holdsSending() {
                    return report([.problem(ThreadProblem(.unknown, "your \(what) waits: " + MatrixEncryption.held.message))])
                }
                if let ours = entry.unreacts {
                    try client.redact(room: roomID, eventID: ours, transactionID: entry.txn)
                    try? outbox?.markSent(entry.txn, event: ours)
                    let update = locked { () -> ThreadUpdate? in
                        reactionsOnTheirWay.remove(slot)
                        heardFrom = Date()
                        return timeline.unreact(eventID: ours)
                    }
                    report(update.map { [$0] } ?? [])
                    return connectionProven()
                }
                id = try sendReaction(target: target, key: key, txn: entry.txn)
            } catch let error as MatrixError where error.neverLeft && !mark.markedBefore {
                // Not connected: it did not leave, so taken back now it is still cancelled silently.
                locked { _ = reactionsMaybeSent.remove(entry.txn) }
                throw error
            }
            try? outbox?.markSent(entry.txn, event: id)
            let update = locked { () -> ThreadUpdate? in
                if queuedReactions[slot]?.txn == entry.txn { queuedReactions[slot] = nil }
                reactionsMaybeSent.remove(entry.txn)
                // Taken back while the send was on the wire: its taking back (queued after) redacts it.
                if cancelledReactions.remove(entry.txn) != nil { return nil }
                return timeline.react(eventID: id, MatrixReactions.Reaction(target: target, key: key, sender: me, at: Date()))
            }
            report(update.map { [$0] } ?? [])
            locked { heardFrom = Date() }
            connectionProven()
        }
    }
}
