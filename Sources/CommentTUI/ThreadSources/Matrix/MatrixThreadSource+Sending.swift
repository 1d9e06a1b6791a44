import Foundation
import ThreadModel

/// Writing to the room: comments sent in order on their own queue with their id as the
/// transaction id (a retry is never posted twice), typing notices, and what a send failure means.
extension MatrixThreadSource {
    public func send(_ comment: Comment) -> SendOutcome { send(comment, inReplyTo: nil) }

    public func send(_ comment: Comment, inReplyTo parentID: String?) -> SendOutcome {
        if sendingHeld != nil { return .failed(MatrixEncryption.refusal) }
        // A retry of a refused comment keeps what it answered.
        let earlier = locked { refused[comment.id] }
        let replyTo = parentID.flatMap { id in locked { timeline.eventID(forComment: id) } } ?? earlier?.replyTo
        let entry = CommentOutbox.Entry(txn: comment.id, author: comment.author, created: comment.created, body: comment.body, replyTo: replyTo)
        // What the server would refuse for good is refused here, before it leaves: the draft stays.
        if let problem = MatrixEventSize.problem(content: locked({ messageContent(entry.body, replyTo: entry.replyTo) })) {
            return .failed(SendFailure(.tooLarge, problem))
        }
        do {
            // On disk before the first attempt: whatever happens next, the next start sends it.
            try outbox?.queue(entry)
        } catch {
            return .failed(SendFailure(.notKept, "could not keep it in the outbox: \(error)"))
        }
        locked { refused[comment.id] = nil }
        stopTyping()
        resend(entry)
        return .pending
    }

    /// The reader discarded a refused comment (or took it back into the draft): it leaves the
    /// outbox and is never sent.
    public func discardUnsent(id: String) {
        let wasRefused = locked { () -> Bool in
            guard refused.removeValue(forKey: id) != nil else { return false }
            // Given up on, it may still reach the room: its echo then shows as a comment of its
            // own, since the app has let go of it.
            timeline.abandon(transactionID: id)
            return true
        }
        if wasRefused { try? outbox?.discard(id) }
    }

    /// Comments given up on whose echo a sync brought after all (`updates`, as the timeline
    /// confirmed them): they are in the room, so they leave the outbox and are not sent again.
    func confirmGivenUp(_ updates: [ThreadUpdate]) {
        for case .sendConfirmed(let transactionID) in updates {
            let echoed = locked { () -> (entry: CommentOutbox.Entry, event: String?)? in
                refused.removeValue(forKey: transactionID).map { ($0, timeline.eventID(forComment: transactionID)) }
            }
            guard let echoed, let event = echoed.event else { continue }
            try? outbox?.markSent(transactionID, event: event)
            // Kept under its event id, as a sent comment is.
            var comment = echoed.entry.comment
            comment.id = event
            remember(sent: comment)
        }
    }

    /// Queues a kept comment for sending (again).
    func resend(_ entry: CommentOutbox.Entry) {
        let content = locked { () -> JSONValue in
            timeline.willSend(transactionID: entry.txn)
            sending[entry.txn] = entry.comment
            return messageContent(entry.body, replyTo: entry.replyTo)
        }
        sendQueue.async { [weak self] in self?.deliver(content, entry: entry) }
    }

    /// The event content for a comment body: mentions resolved against the members (call locked).
    /// A mention is named by display name, else by Matrix id: our handles mean nothing elsewhere.
    func messageContent(_ body: String, replyTo eventID: String? = nil) -> JSONValue {
        let members = timeline.members
        let message = MatrixMessageContent(markdown: body, handles: { members.userID(handle: $0) },
                                           displayName: { (members.names[$0] ?? nil) ?? $0 }, replyTo: eventID,
                                           replyToSender: eventID.flatMap { timeline.replyMention(ofEvent: $0, me: me) })
        return inPost(JSONValue(foundation: message.json), replyTo: eventID)
    }

    /// Sends until the server accepts or refuses; the network's absence only delays it, and a
    /// server that never answers usably is given a few tries (`MatrixSendRetry`).
    private func deliver(_ content: JSONValue, entry: CommentOutbox.Entry) {
        let transactionID = entry.txn
        untilAnswered(refused: { refuse(entry, reason: $0) }) {
            guard let event = try outgoing(content) else { return hold(transactionID) }
            let eventID = try sendAttempt(client, roomID, event.type, transactionID, event.content, sendTimeout)
            locked { heardFrom = Date() }
            try? outbox?.markSent(transactionID, event: eventID)
            connectionProven()
            // Confirmed by whichever comes first, this answer or the sync's echo (matched by
            // `unsigned.transaction_id`): a resend after a restart may get no echo at all.
            if locked({ timeline.sent(transactionID: transactionID, eventID: eventID) }) {
                report([.sendConfirmed(commentID: transactionID)])
            }
            // Kept under its event id: a reopened copy knows it as the room does (its read
            // marker, sent as that event, names it).
            if var comment = locked({ sending.removeValue(forKey: transactionID) }) {
                comment.id = eventID
                remember(sent: comment)
            }
        }
    }

    /// Runs `attempt` (a send of the outbox's, on the send queue) until it returns: again after
    /// each failure `MatrixSendRetry` says to retry, `refused` when it says the server will not
    /// take it. Signed out, nothing is tried: what waits stays queued in the outbox for a start
    /// after logging in again.
    func untilAnswered(refused: (SendFailure) -> Void, _ attempt: () throws -> Void) {
        if locked({ isSignedOut }) { return }
        var retry = MatrixSendRetry()
        retry.longestRateLimitWait = locked { longestRateLimitWait }
        while !stopped {
            do {
                return try attempt()
            } catch {
                if stopped || (error as? MatrixError)?.kind == .cancelled { return }
                switch retry.next(after: error, inTouch: isInTouch) {
                case .retry(let seconds):
                    if !pause(seconds) { return }
                case .notSent(let reason):
                    return refused(reason)
                case .signedOut(let message):
                    return signedOut(message)
                }
            }
        }
    }

    /// Whether the homeserver was heard from lately: the connection is live and a sync answered
    /// within a long poll and a margin (a quiet room's sync answers at least that often).
    var isInTouch: Bool {
        locked { connection == .live && heardFrom.map { Date().timeIntervalSince($0) < Double(Self.pollSeconds + 15) } == true }
    }

    /// The server ended the session (401 `M_UNKNOWN_TOKEN`): nothing more is sent, and what
    /// waits stays queued, not refused, so the next start after logging in sends it. Said once.
    func signedOut(_ message: String) {
        let first = locked { () -> Bool in
            defer { isSignedOut = true }
            return !isSignedOut
        }
        if first { report([.problem(ThreadProblem(.signedOut, message))]) }
    }

    /// Leaves a comment not sent, for good until the reader acts: kept so, with the reason, in
    /// the outbox (the next start shows it so, and does not send it blindly).
    private func refuse(_ entry: CommentOutbox.Entry, reason: SendFailure) {
        var kept = entry
        kept.notSent = reason
        // Its echo may have come while the last attempts went unanswered: it is in the room after
        // all. Looked at and recorded under one lock, so an echo applied later finds it refused.
        let echoed = locked { () -> String? in
            sending[entry.txn] = nil
            if let event = timeline.eventID(forComment: entry.txn) { return event }
            refused[entry.txn] = kept
            return nil
        }
        if let echoed {
            try? outbox?.markSent(entry.txn, event: echoed)
            var comment = entry.comment
            comment.id = echoed
            return remember(sent: comment)
        }
        // A `sent` record written meanwhile (`confirmGivenUp`) still wins over this one.
        try? outbox?.markRefused(entry.txn, reason: reason)
        report([.sendFailed(commentID: entry.txn, reason: reason)])
    }

    /// Typing notices, as `typingSchedule` decides them: on at the first keystroke (renewed
    /// every 20 s), off on send, clear or 30 s without a keystroke.
    public func readerIsTyping(_ typing: Bool) {
        guard typing else { return stopTyping() }
        let (notice, expiry) = locked { () -> (TypingSchedule.Notice?, Duration?) in
            (typingSchedule.keystroke(at: typingNow), typingSchedule.expiry)
        }
        guard let notice else { return }
        carryOut(notice)
        // One wake per notice sent, not per keystroke: it looks again if keystrokes moved the expiry.
        if let expiry { wakeTyping(at: expiry) }
    }

    /// Time on the typing schedule's clock.
    private var typingNow: Duration { ContinuousClock.now - typingOrigin }

    func stopTyping() {
        if let notice = locked({ typingSchedule.stop() }) { carryOut(notice) }
    }

    /// Wakes the schedule when the reader would stop counting as typing; keystrokes since may
    /// have moved that on, and it sleeps again until then.
    private func wakeTyping(at expiry: Duration) {
        let wait = expiry - typingNow
        let seconds = Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
        workQueue.asyncAfter(deadline: .now() + max(0, seconds)) { [weak self] in
            guard let self else { return }
            let (notice, later) = locked { () -> (TypingSchedule.Notice?, Duration?) in
                let notice = typingSchedule.advance(to: typingNow)
                return (notice, typingSchedule.expiry)
            }
            if let notice { carryOut(notice) } else if let later { wakeTyping(at: later) }
        }
    }

    private func carryOut(_ notice: TypingSchedule.Notice) {
        workQueue.async { [weak self] in self?.sendTyping(notice == .typing) }
    }

    private func sendTyping(_ typing: Bool) {
        guard !stopped else { return }
        try? client.setTyping(room: roomID, userID: me, typing: typing)
    }
}
