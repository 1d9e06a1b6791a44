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
            return .success((target, timeline.reactions.event(target: target, key: key, sender: me)))
        }
        let target: String, ours: String?
        switch plan {
        case .failure(let refusal): return .refused(refusal.reason)
        case .success(let planned): (target, ours) = planned
        }
        let transactionID = "reaction-" + UUID().uuidString
        sendQueue.async { [weak self] in
            guard let self, !self.stopped else { return }
            do {
                // Applied once the server answers, before its echo (which then changes nothing):
                // a second toggle at once acts on what the first did.
                if let ours {
                    try self.client.redact(room: self.roomID, eventID: ours, transactionID: transactionID)
                    self.report(self.locked { self.timeline.unreact(eventID: ours) }.map { [$0] } ?? [])
                } else {
                    let relation: JSONValue = ["rel_type": "m.annotation", "event_id": .string(target), "key": .string(key)]
                    let id = try self.client.send(room: self.roomID, type: "m.reaction", transactionID: transactionID,
                                                  content: ["m.relates_to": relation], timeout: self.sendTimeout)
                    let reaction = MatrixReactions.Reaction(target: target, key: key, sender: self.me, at: Date())
                    self.report(self.locked { self.timeline.react(eventID: id, reaction) }.map { [$0] } ?? [])
                }
            } catch {
                if self.stopped { return }
                let what = ours == nil ? "reaction not sent" : "reaction not taken back"
                self.report([.problem(ThreadProblem(.unknown, "\(what): \(error)"))])
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
