import ThreadModel

/// Desktop notifications: the terminal's focus reports, and comments that call for the reader
/// handed to the policy; what it decides leaves with the next frame (`Frame.notification`).
extension CommentApp {
    /// Takes a focus report (`ESC [ I`, `ESC [ O`, mode 1004).
    func terminalFocusChanged(_ focused: Bool) {
        terminalFocused = focused
        notifications?.terminalFocusChanged(focused, at: now)
    }

    /// Hands a comment that arrived live (from someone else) to the notification policy; a
    /// notification it decides on goes with the next frame. `callsForReader`: a mention.
    func weighNotification(for comment: Comment, callsForReader: Bool) {
        guard var policy = notifications else { return }
        let thread = comments.thread
        // An encrypted room's text is never shown, whatever its join rule.
        let isPrivate = notificationThread.isPrivate || sendingHeld != nil
        let arrival = NotificationArrival(
            thread: notificationThread.key, threadName: thread.title, authorName: thread.user(id: comment.author)?.name ?? comment.author,
            text: isPrivate ? nil : Self.notificationText(of: comment.body, handles: comments.handleID),
            callsForReader: callsForReader, isDirect: notificationThread.isDirect, isPrivate: isPrivate,
            isOnScreen: true, terminalFocused: terminalFocused)
        let decided = policy.decide(arrival, at: now)
        notifications = policy
        if let decided { raise(decided) }
    }

    /// Puts `text` on the next frame in the terminal's escape; as the bell where that is all
    /// the terminal has (a mention's frame rings it already: it rings once).
    func raise(_ text: NotificationText) {
        guard notificationStyle != .bell else { return overlays.ringBell() }
        notificationsRaised += 1
        overlays.notify(TerminalNotification.bytes(text, style: notificationStyle, identifier: notificationsRaised))
    }

    /// The words of a comment as a notification shows them: parsed as the feed shows it (a
    /// mention as its handle, markup gone), spoilers masked, lines joined with spaces. Only its
    /// start is read: a notification shows a line.
    static func notificationText(of body: String, handles: (String) -> String?) -> String {
        let runs = CommentMarkup.parseRuns(ShownBody(body, limit: Self.notificationBodyBytes).text, handles: handles)
        var words: [String] = []
        LogicalLines.forEach(in: runs) { line in
            var text = ""
            for piece in line.clusters {
                text += piece.style.spoiler == nil ? piece.cluster.text : String(repeating: CommentRenderer.spoilerMask.text, count: piece.cluster.width)
            }
            if !text.allSatisfy(\.isWhitespace) { words.append(text) }
        }
        return words.joined(separator: " ")
    }

    /// The bytes of a body read for its notification: a line's worth, with room for markup.
    static let notificationBodyBytes = 2048
}
