import ThreadModel

/// Ctrl-Home in a thread whose start is not loaded yet (a big room): the feed goes to the top of
/// what is loaded, and on through each older page as it arrives, until it reaches the post.
extension CommentApp {
    /// To the top, and on to the thread's start while older pages are still to come.
    func seekTop() {
        seeksTop = comments.hasOlder
        feed.scrollToTop()
        if seeksTop { showWalkProgress() }
    }

    /// How the status bar's line on the walk starts.
    static let walkMessage = "loading older…"

    /// Says how far the walk has come: `loading older… 350 comments · any key stops`.
    func showWalkProgress() {
        overlays.show("\(Self.walkMessage) \(CountText.of(comments.count, "comment")) · any key stops")
    }

    /// An older page came during the walk: on it goes, or it is over (its line goes).
    func walkGoesOn(_ goesOn: Bool) {
        if goesOn { showWalkProgress() } else { clearWalkMessage() }
    }

    /// Ends the walks to the post and to a replied-to comment: the reader took over.
    func stopWalks() {
        if seeksTop { clearWalkMessage() }
        seeksTop = false
        seeksReplied = nil
        stopSeekingLinked()
    }

    private func clearWalkMessage() {
        if overlays.message?.hasPrefix(Self.walkMessage) == true { overlays.clearMessage() }
    }
}
