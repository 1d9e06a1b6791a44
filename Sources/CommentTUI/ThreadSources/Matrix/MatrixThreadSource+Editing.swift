import Foundation
import ThreadModel

/// Editing and deleting our own comments in a room: an edit is an `m.replace` event whose
/// `m.new_content` is the content a send of the new body makes, with the `* ` fallback body
/// outside; a deletion is a redaction. Both go through the outbox under a transaction id of
/// their own, so one made offline is sent when the room is next open, and never twice.
extension MatrixThreadSource: CommentEditing {
    public func change(_ change: CommentChange, of comment: Comment) -> SendFailure? {
        // Never in plaintext into an encrypted room: an edit would show what the room hides.
        if sendingHeld != nil { return MatrixEncryption.refusal }
        guard let eventID = locked({ timeline.eventID(forComment: change.comment) }) ?? (change.comment.hasPrefix("$") ? change.comment : nil) else {
            return SendFailure(.unknown, "it is not in the room yet")
        }
        var entry = CommentOutbox.Entry(txn: ThreadFileWriter.newCommentID(), author: change.author, created: change.created,
                                        body: "", replyTo: nil)
        switch change.kind {
        case .edit(let body):
            if let refusal = editRefusal(of: comment) { return SendFailure(.unknown, refusal) }
            entry.body = body
            entry.replaces = eventID
            entry.mentionedBefore = locked { Self.mentions(in: messageContent(comment.body)) }
            if let problem = MatrixEventSize.problem(content: locked({ editContent(entry) })) {
                return SendFailure(.tooLarge, problem)
            }
        case .delete:
            entry.redacts = eventID
        }
        do {
            // On disk before the first attempt, as a comment is.
            try outbox?.queue(entry)
            locked { changedFrom[entry.txn] = comment }
        } catch {
            return SendFailure(.notKept, "could not keep it in the outbox: \(error)")
        }
        resendChange(entry)
        return nil
    }

    /// An emote, media or a message that does not read is not edited: the edit's new content
    /// would be `m.text`, changing what kind of message it is.
    public func editRefusal(of comment: Comment) -> String? {
        locked {
            guard let eventID = timeline.eventID(forComment: comment.id) ?? (comment.id.hasPrefix("$") ? comment.id : nil),
                  timeline.notPlainText.contains(eventID) else { return nil }
            return "only a text message can be edited here"
        }
    }

    /// The content of an edit (call locked): the new content as a send makes it, under
    /// `m.new_content`; outside, the same with `* ` before the bodies (what clients without edits
    /// show) and, in `m.mentions`, only those the edit newly mentions (the others were pinged).
    func editContent(_ entry: CommentOutbox.Entry) -> JSONValue {
        let new = messageContent(entry.body)
        guard case .object(var outer) = new, let eventID = entry.replaces else { return new }
        if let plain = outer["body"]?.string { outer["body"] = .string("* " + plain) }
        if let html = outer["formatted_body"]?.string { outer["formatted_body"] = .string("* " + html) }
        let before = Set(entry.mentionedBefore ?? [])
        let added = Self.mentions(in: new).filter { !before.contains($0) }
        outer["m.mentions"] = .object(added.isEmpty ? [:] : ["user_ids": .array(added.map(JSONValue.string))])
        // A post's comment keeps its thread by the edited event: the new content holds no relation.
        var newContent = new
        if case .object(var object) = new { object["m.relates_to"] = nil; newContent = .object(object) }
        outer["m.new_content"] = newContent
        outer["m.relates_to"] = .object(["rel_type": .string("m.replace"), "event_id": .string(eventID)])
        return .object(outer)
    }

    /// The user ids a message content's `m.mentions` names.
    static func mentions(in content: JSONValue) -> [String] {
        content["m.mentions"]?["user_ids"]?.array?.compactMap(\.string) ?? []
    }

    /// Queues a kept edit or deletion for sending (again).
    func resendChange(_ entry: CommentOutbox.Entry) {
        if entry.reactsTo != nil { return resendReaction(entry) }
        let content = entry.replaces == nil ? nil : locked { editContent(entry) }
        sendQueue.async { [weak self] in self?.deliverChange(entry, content: content) }
    }

    /// Sends until the server accepts or refuses, as a comment is sent (`MatrixSendRetry`); the
    /// transaction id makes a retry, and a resend after a restart, one event.
    private func deliverChange(_ entry: CommentOutbox.Entry, content: JSONValue?) {
        untilAnswered(refused: { refuseChange(entry, reason: $0) }) {
            // Held, it stays in the outbox for a client that can encrypt.
            let held = { self.report([.problem(ThreadProblem(.unknown, "your \(entry.redacts == nil ? "edit" : "deletion") waits: "
                                                        + MatrixEncryption.held.message))]) }
            let event: String
            if let content {
                guard let outgoing = try outgoing(content) else { return held() }
                event = try sendAttempt(client, roomID, outgoing.type, entry.txn, outgoing.content, sendTimeout)
            } else if let redacted = entry.redacts {
                if try holdsSending() { return held() }
                try client.redact(room: roomID, eventID: redacted, transactionID: entry.txn)
                event = redacted
            } else {
                return
            }
            locked { heardFrom = Date() }
            try? outbox?.markSent(entry.txn, event: event)
            locked { changedFrom[entry.txn] = nil }
            connectionProven()
        }
    }
}

extension MatrixThreadSource {
    /// The server refused an edit or deletion for good: sending it again would be refused too,
    /// so it leaves the outbox, and the comment shows again as the room has it (as it was before,
    /// or as a change since made it), with the reason in the status bar.
    func refuseChange(_ entry: CommentOutbox.Entry, reason: SendFailure) {
        try? outbox?.discard(entry.txn)
        let before = locked { changedFrom.removeValue(forKey: entry.txn).map { timeline.changed[$0.id] ?? $0 } }
        let what = entry.redacts == nil ? "edit" : "deletion"
        report((before.map { [ThreadUpdate.commentEdited($0)] } ?? [])
               + [.problem(ThreadProblem(.unknown, "your \(what) was not sent, the comment is as it was: \(reason.message)"))])
    }
}
