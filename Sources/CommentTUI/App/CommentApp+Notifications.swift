import ThreadModel

/// Desktop notifications: the terminal's focus reports, and comments that call for the reader
/// handed to the policy; what it decides leaves with the next frame (`Frame.notification`).
extension CommentApp {
    /// Takes a focus report (`ESC [ I`, `ESC [ O`, mode 1004).
    func terminalFocusChanged(_ focused: Bool) {
        terminalFocused = focused
        notifications?.terminalFocusChanged(focused, at: now)
    }

    /// Hands a comment that arrived live (from someone else) to the notifications; one they
    /// raise goes with the next frame. `callsForReader`: a mention.
    func weighNotification(for comment: Comment, callsForReader: Bool) {
        guard notifications != nil else { return }
        let thread = comments.thread
        // An encrypted room's text is never shown, whatever its join rule.
        let isPrivate = notificationThread.isPrivate || sendingHeld != nil
        let arrival = NotificationArrival(
            thread: notificationThread.key, threadName: thread.title, authorName: thread.user(id: comment.author)?.name ?? comment.author,
            text: isPrivate ? nil : Self.notificationText(of: comment.body, handles: comments.handleID),
            callsForReader: callsForReader, isDirect: notificationThread.isDirect, isPrivate: isPrivate,
            isOnScreen: isOnScreen, terminalFocused: terminalFocused)
        guard let escape = notifications?.escape(for: arrival, at: now) else { return }
        // The bell style is the bell: a mention's frame rings it already, and it rings once.
        if notifications?.style == .bell { overlays.ringBell() } else { overlays.notify(escape) }
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
                text += line.style(of: piece).spoiler == nil ? piece.cluster.text : String(repeating: CommentRenderer.spoilerMask.text, count: piece.cluster.width)
            }
            if !text.allSatisfy(\.isWhitespace) { words.append(text) }
        }
        return words.joined(separator: " ")
    }

    /// Takes the notification raised for the next frame, if any (the client sends those of its
    /// threads off screen with the frame it shows).
    func takeNotification() -> [UInt8] {
        defer { overlays.notificationSent() }
        return overlays.notificationPending
    }

    /// Takes the bell rung for the next frame (a mention in a thread off screen rings the frame
    /// on screen).
    func takeBell() -> Bool {
        defer { overlays.bellRang() }
        return overlays.bellPending
    }

    /// The bytes of a body read for its notification: a line's worth, with room for markup.
    static let notificationBodyBytes = 2048
}
