import ThreadModel

/// A thread opened from a link to one of its comments (a permalink to a room's message): it
/// opens with that comment on screen and selected, loading older pages first while it is not
/// loaded yet (as Alt-J does for a reply's target). The feed still follows what arrives and
/// pages back from there; any key stops the search.
extension CommentApp {
    /// How many older pages are loaded looking for the linked comment before giving up.
    static let linkedCommentPages = 40

    /// How the status bar's line on the search starts.
    static let linkedMessage = "loading older comments to find the linked one"

    /// At opening: to the comment the source's link named, if any.
    func showLinkedComment() {
        guard let id = (source as? LinkedComment)?.linkedCommentID else { return }
        seekLinked(id)
    }

    /// Selects the comment with `id` and shows it (in the feed's middle, at once: the thread
    /// just opened, so there is no place to move from); loads older pages while it is not loaded.
    func seekLinked(_ id: String) {
        if let index = comments.index(ofComment: id, limit: comments.count) {
            stopSeekingLinked()
            feed.selected = index
            feed.scroll.scrollTo(comment: index, alignment: .center, animated: false, at: now)
            feed.flashHeader(of: index)
            prepare()
            return
        }
        // The room's post (its creator's first message) is in the header, above every page.
        if id == source.replyTargets?.postCommentID {
            stopSeekingLinked()
            return seekTop()
        }
        guard comments.hasOlder, source.olderPages != nil else {
            return overlays.show("the linked comment is not in this thread")
        }
        seeksLinked = id
        linkedPagesLoaded = 0
        overlays.show("\(Self.linkedMessage)… · any key stops")
        loadOlderForLinked()
    }

    /// An older page came while the linked comment is looked for: there it is, or the next page
    /// is asked for (up to `linkedCommentPages`).
    func linkedPageArrived(seeking id: String, in list: [Comment], hasMore: Bool) {
        if list.contains(where: { $0.id == id }) { return seekLinked(id) }
        linkedPagesLoaded += 1
        guard hasMore, linkedPagesLoaded < Self.linkedCommentPages else {
            stopSeekingLinked()
            let reach = hasMore ? "further back than \(linkedPagesLoaded) pages" : "not in this thread"
            return overlays.show("the linked comment is \(reach)")
        }
        loadOlderForLinked()
    }

    /// Ends the search (found, given up, or a key pressed); its line goes.
    func stopSeekingLinked() {
        if seeksLinked != nil, overlays.message?.hasPrefix(Self.linkedMessage) == true { overlays.clearMessage() }
        seeksLinked = nil
    }

    private func loadOlderForLinked() {
        guard !isLoadingOlder, let olderPages = source.olderPages else { return }
        isLoadingOlder = true
        olderPages.loadOlderComments()
    }
}
