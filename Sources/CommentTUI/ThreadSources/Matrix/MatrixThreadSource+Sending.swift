import Foundation
import ThreadModel

/// Writing to the room: comments sent in order on their own queue with their id as the
/// transaction id (a retry is never posted twice), typing notices, and what a send failure means.
extension MatrixThreadSource {
    public func send(_ comment: Comment) -> SendOutcome { send(comment, inReplyTo: nil) }

    public func send(_ comment: Comment, inReplyTo parentID: String?) -> SendOutcome {
        let replyTo = parentID.flatMap { id in locked { timeline.eventID(forComment: id) } }
        let entry = CommentOutbox.Entry(txn: comment.id, author: comment.author, created: comment.created, body: comment.body, replyTo: replyTo)
        do {
            // On disk before the first attempt: whatever happens next, the next start sends it.
            try outbox?.queue(entry)
        } catch {
            return .failed("could not keep it in the outbox: \(error)")
        }
        stopTyping()
        resend(entry)
        return .pending
    }

    /// Queues a kept comment for sending (again).
    func resend(_ entry: CommentOutbox.Entry) {
        let content = locked { () -> JSONValue in
            timeline.willSend(transactionID: entry.txn)
            sending[entry.txn] = entry.comment
            return messageContent(entry.body, replyTo: entry.replyTo)
        }
        sendQueue.async { [weak self] in self?.deliver(content, transactionID: entry.txn) }
    }

    /// The event content for a comment body: mentions resolved against the members (call locked).
    /// A mention is named by display name, else by Matrix id: our handles mean nothing elsewhere.
    func messageContent(_ body: String, replyTo eventID: String? = nil) -> JSONValue {
        let members = timeline.members
        let message = MatrixMessageContent(markdown: body, handles: { members.userID(handle: $0) },
                                           displayName: { (members.names[$0] ?? nil) ?? $0 }, replyTo: eventID,
                                           replyToSender: eventID.flatMap { timeline.replyMention(ofEvent: $0, me: me) })
        return JSONValue(foundation: message.json)
    }

    /// Sends until the server accepts or refuses; the network's absence only delays it.
    private func deliver(_ content: JSONValue, transactionID: String) {
        var delay = 1.0
        while !stopped {
            do {
                let eventID = try client.send(room: roomID, transactionID: transactionID, content: content)
                try? outbox?.markSent(transactionID, event: eventID)
                // Confirmed by whichever comes first, this answer or the sync's echo (matched by
                // `unsigned.transaction_id`): a resend after a restart may get no echo at all.
                if locked({ timeline.sent(transactionID: transactionID, eventID: eventID) }) {
                    report([.sendConfirmed(commentID: transactionID)])
                }
                if let comment = locked({ sending.removeValue(forKey: transactionID) }) { remember(sent: comment) }
                return
            } catch let error as MatrixError where error.isTransient {
                if !pause(error.retryAfter ?? delay) { return }
                delay = min(delay * 2, Self.longestRetry)
            } catch {
                report([.sendFailed(commentID: transactionID, reason: "\(error)")])
                return
            }
        }
    }

    /// Typing notices: on at the first keystroke (renewed every 20 s), off on send, clear or
    /// 30 s without a keystroke.
    public func readerIsTyping(_ typing: Bool) {
        guard typing else { return stopTyping() }
        let now = Date()
        let stop = DispatchWorkItem { [weak self] in self?.stopTyping() }
        let renew = locked { () -> Bool in
            typingStop?.cancel()
            typingStop = stop
            guard typingSince.map({ now.timeIntervalSince($0) > 20 }) ?? true else { return false }
            typingSince = now
            return true
        }
        workQueue.asyncAfter(deadline: .now() + 30, execute: stop)
        if renew { workQueue.async { [weak self] in self?.sendTyping(true) } }
    }

    func stopTyping() {
        let wasTyping = locked { () -> Bool in
            typingStop?.cancel()
            typingStop = nil
            defer { typingSince = nil }
            return typingSince != nil
        }
        if wasTyping { workQueue.async { [weak self] in self?.sendTyping(false) } }
    }

    private func sendTyping(_ typing: Bool) {
        guard !stopped else { return }
        try? client.setTyping(room: roomID, userID: me, typing: typing)
    }
}
