import ThreadModel

/// A thread opened from a link to one of its comments (a permalink to a room's message): it
/// opens with that comment on screen and selected. A room opened from its offline copy first
/// catches up (the comment may be newer than the copy); then, while the comment is not loaded,
/// older pages load (up to `linkedCommentPages`, as Alt-J does for a reply's target). The feed
/// still follows what arrives; any key stops the search.
extension CommentApp {
    /// How many older pages are loaded looking for the linked comment before giving up.
    static let linkedCommentPages = 40

    /// How the status bar's line on the search starts (while older pages load).
    static let linkedMessage = "loading older comments to find the linked one"
    /// The line while the search waits for the catch-up.
    static let linkedCatchUpMessage = "catching up to find the linked comment"

    /// At opening: to the comment the source's link named, if any; a source catching up is
    /// let finish first.
    func showLinkedComment() {
        if let note = (source as? LinkedComment)?.linkedCommentNote { overlays.show(note) }
        guard let id = (source as? LinkedComment)?.linkedCommentID else { return }
        linkedPagesLoaded = 0
        linkedAwaitsCatchUp = source.catchingUp?.isCatchingUp ?? false
        seekLinked(id)
    }

    /// Selects the comment with `id` and shows it (in the feed's middle, at once: the thread
    /// just opened, so there is no place to move from); while it is not loaded, waits for the
    /// catch-up, then fills a gap the catch-up left or loads older pages.
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
        if id == source.replyTargets?.postCommentID, !comments.hasOlder {
            stopSeekingLinked()
            return feed.scrollToTop()
        }
        seeksLinked = id
        if linkedAwaitsCatchUp {
            return overlays.show("\(Self.linkedCatchUpMessage)… · any key stops")
        }
        // What the catch-up skipped (a gap) is newer than any older page: filled first.
        if let gap = comments.gapToFill(near: comments.count, margin: comments.count) {
            feed.invalidate(gap.index)
            source.gapFilling?.fillGap(gap.id)
            return overlays.show("\(Self.linkedMessage)… · any key stops")
        }
        guard comments.hasOlder, source.olderPages != nil else {
            stopSeekingLinked()
            return overlays.show("the linked comment is not in this thread")
        }
        overlays.show("\(Self.linkedMessage)… · any key stops")
        loadOlderForLinked()
    }

    /// Comments arrived (new ones, a gap filled): the linked comment may be among them; after a
    /// gap was filled without it, the search goes on.
    func linkedArrivalsCame(gapFilled: Bool) {
        guard let id = seeksLinked else { return }
        if comments.index(ofComment: id, limit: comments.count) != nil || (gapFilled && !linkedAwaitsCatchUp && !isLoadingOlder) {
            seekLinked(id)
        }
    }

    /// The source caught up: the search goes on from what it brought.
    func linkedCatchUpEnded() {
        guard linkedAwaitsCatchUp else { return }
        linkedAwaitsCatchUp = false
        if let id = seeksLinked { seekLinked(id) }
    }

    /// An older page came while the linked comment is looked for: there it is, or the next page
    /// is asked for (up to `linkedCommentPages` in all, since the link opened the thread).
    func linkedPageArrived(seeking id: String, in list: [Comment], hasMore: Bool) {
        if list.contains(where: { $0.id == id }) { return seekLinked(id) }
        // A page the opening asked for, not the search: it starts once the catch-up is over.
        guard !linkedAwaitsCatchUp else { return }
        linkedPagesLoaded += 1
        if id == source.replyTargets?.postCommentID, !hasMore { return seekLinked(id) }
        guard hasMore, linkedPagesLoaded < Self.linkedCommentPages else {
            stopSeekingLinked()
            let reach = hasMore ? "further back than \(linkedPagesLoaded) pages" : "not in this thread"
            return overlays.show("the linked comment is \(reach)")
        }
        loadOlderForLinked()
    }

    /// A page could not be loaded while the linked comment is looked for: the search ends, saying why.
    func linkedLoadFailed(_ problem: ThreadProblem) {
        guard seeksLinked != nil, problem.kind == .notLoaded else { return }
        stopSeekingLinked()
        overlays.show("stopped looking for the linked comment: \(problem.message)", error: true)
    }

    /// Ends the search (found, given up, or a key pressed); its line goes.
    func stopSeekingLinked() {
        if seeksLinked != nil, let message = overlays.message,
           message.hasPrefix(Self.linkedMessage) || message.hasPrefix(Self.linkedCatchUpMessage) { overlays.clearMessage() }
        seeksLinked = nil
        linkedAwaitsCatchUp = false
    }

    private func loadOlderForLinked() {
        guard !isLoadingOlder, let olderPages = source.olderPages else { return }
        isLoadingOlder = true
        olderPages.loadOlderComments()
    }
}
