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
        guard let target = entry.reactsTo else { return }
        let echoed = locked { () -> String? in
            let slot = Self.reactionSlot(target, entry.body)
            let ours = timeline.reactions.event(target: target, key: entry.body, sender: me)
            // In the room already (it reached the server before the last run ended): done.
            if entry.unreacts == nil, let ours { return ours }
            if entry.unreacts == nil { queuedReactions[slot] = entry } else { reactionsOnTheirWay.insert(slot) }
            return nil
        }
        if let echoed { return (try? outbox?.markSent(entry.txn, event: echoed)) ?? () }
        deliverReactionLater(entry)
    }

    /// Sends a kept reaction on the send queue, after what was queued before it.
    func deliverReactionLater(_ entry: CommentOutbox.Entry) {
        sendQueue.async { [weak self] in self?.deliverReaction(entry) }
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
            if locked({ cancelledReactions.remove(entry.txn) != nil }) { return }
            // Held, it stays in the outbox for a client that can encrypt.
            if try holdsSending() {
                return report([.problem(ThreadProblem(.unknown, "your \(what) waits: " + MatrixEncryption.held.message))])
            }
            if let ours = entry.unreacts {
                try client.redact(room: roomID, eventID: ours, transactionID: entry.txn)
                try? outbox?.markSent(entry.txn, event: ours)
                let update = locked { () -> ThreadUpdate? in
                    reactionsOnTheirWay.remove(slot)
                    return timeline.unreact(eventID: ours)
                }
                report(update.map { [$0] } ?? [])
            } else {
                let relation: JSONValue = ["rel_type": "m.annotation", "event_id": .string(target), "key": .string(key)]
                let id = try client.send(room: roomID, type: "m.reaction", transactionID: entry.txn,
                                         content: ["m.relates_to": relation], timeout: sendTimeout)
                try? outbox?.markSent(entry.txn, event: id)
                let (update, cancelledMeanwhile) = locked { () -> (ThreadUpdate?, Bool) in
                    if queuedReactions[slot]?.txn == entry.txn { queuedReactions[slot] = nil }
                    let update = timeline.react(eventID: id, MatrixReactions.Reaction(target: target, key: key, sender: me, at: Date()))
                    return (update, cancelledReactions.remove(entry.txn) != nil)
                }
                report(update.map { [$0] } ?? [])
                // Taken back while the send was on the wire: it reached the room, so it goes by redaction.
                if cancelledMeanwhile { takeBackSentReaction(id, target: target, key: key) }
            }
            locked { heardFrom = Date() }
            connectionProven()
        }
    }

    /// Queues the taking back of a reaction of ours that reached the room.
    private func takeBackSentReaction(_ event: String, target: String, key: String) {
        var entry = CommentOutbox.Entry(txn: "reaction-" + UUID().uuidString, author: me, created: Date(), body: key)
        entry.reactsTo = target
        entry.unreacts = event
        guard locked({ reactionsOnTheirWay.insert(Self.reactionSlot(target, key)).inserted }) else { return }
        try? outbox?.queue(entry)
        deliverReactionLater(entry)
    }
}
