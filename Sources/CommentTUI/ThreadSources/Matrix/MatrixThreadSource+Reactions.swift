import Foundation
import ThreadModel

/// The reader's reactions: an `m.reaction` with an `m.annotation` relation to add one, a
/// redaction of that event to take it back. Never sent into an encrypted room.
extension MatrixThreadSource: Reacting {
    public func toggleReaction(_ key: String, on commentID: String) -> ReactionToggle {
        let plan = locked { () -> Result<(target: String, ours: String?), ReactionRefusal> in
            if timeline.isEncrypted { return .failure(ReactionRefusal(MatrixEncryption.notice)) }
            if isSignedOut { return .failure(ReactionRefusal("signed out: nothing is sent")) }
            guard let target = timeline.eventID(forComment: commentID) else {
                return .failure(ReactionRefusal("this comment is not in the room yet"))
            }
            // A second key before the server answered the first would send the same again.
            guard reactionsOnTheirWay.insert(target + "\u{0}" + key).inserted else {
                return .failure(ReactionRefusal("\(key) is still on its way"))
            }
            return .success((target, timeline.reactions.event(target: target, key: key, sender: me)))
        }
        let target: String, ours: String?
        switch plan {
        case .failure(let refusal): return .refused(refusal.reason)
        case .success(let planned): (target, ours) = planned
        }
        let transactionID = "reaction-" + UUID().uuidString
        let slot = target + "\u{0}" + key
        sendQueue.async { [weak self] in
            guard let self else { return }
            // Done: off its way and applied under one lock, so the update the app sees next
            // finds the key free to toggle again.
            func finish(_ change: () -> ThreadUpdate?) {
                let update = locked { () -> ThreadUpdate? in
                    reactionsOnTheirWay.remove(slot)
                    return change()
                }
                report(update.map { [$0] } ?? [])
            }
            guard !stopped else { return finish { nil } }
            do {
                // The room may have been encrypted since the key was pressed: asked right before
                // sending, as for every other send.
                if try holdsSending() {
                    finish { nil }
                    let what = ours == nil ? "reaction not sent" : "reaction not taken back"
                    return report([.problem(ThreadProblem(.unknown, "\(what): \(MatrixEncryption.refusal.message)"))])
                }
                // Applied once the server answers, before its echo (which then changes nothing).
                if let ours {
                    try client.redact(room: roomID, eventID: ours, transactionID: transactionID)
                    finish { timeline.unreact(eventID: ours) }
                } else {
                    let relation: JSONValue = ["rel_type": "m.annotation", "event_id": .string(target), "key": .string(key)]
                    let id = try client.send(room: roomID, type: "m.reaction", transactionID: transactionID,
                                             content: ["m.relates_to": relation], timeout: sendTimeout)
                    finish { timeline.react(eventID: id, MatrixReactions.Reaction(target: target, key: key, sender: me, at: Date())) }
                }
            } catch {
                finish { nil }
                if stopped { return }
                let what = ours == nil ? "reaction not sent" : "reaction not taken back"
                report([.problem(ThreadProblem(.unknown, "\(what): \(error)"))])
            }
        }
        return ours == nil ? .adding : .removing
    }
}

/// Why a reaction was not sent.
private struct ReactionRefusal: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
