import ThreadModel

/// Replies in the feed: each opens with a one-line quote of what it answers (found among the
/// loaded comments, else fetched by the source), and Alt-J or a click on that quote goes there,
/// loading older pages until it is found.
extension CommentApp {
    /// How far back from the newest loaded comment a reply's target is looked for before the
    /// source is asked for it.
    static let replyTargetSearch = 2_000
    /// How many older pages Alt-J loads looking for a target before it gives up.
    static let replyTargetPages = 40

    /// The quote a reply opens with, or nil for a comment that is no reply or quotes already
    /// (an Alt-R reply opens with its own quote of the comment it answers).
    func replyQuote(for comment: Comment) -> ReplyQuote? {
        guard let id = comment.replyTo, !comment.body.hasPrefix(">") else { return nil }
        switch replyTargets[id] ?? findReplyTarget(id).map(ReplyTarget.comment) {
        case .comment(let target): return ReplyQuote(target: target, author: comments.user(id: target.author)?.name ?? target.author)
        case .unavailable: return ReplyQuote(note: "a comment that is not available")
        case .unreachable, nil: break
        }
        if let fetcher = source.replyTargets, askedReplyTargets.insert(id).inserted { fetcher.loadReplyTarget(id) }
        return ReplyQuote(note: "loading the comment replied to…")
    }

    /// A target among the loaded comments, kept once found.
    private func findReplyTarget(_ id: String) -> Comment? {
        guard let index = comments.index(ofComment: id, limit: Self.replyTargetSearch),
              let target = comments.comment(at: index) else { return nil }
        replyTargets[id] = .comment(target)
        return target
    }

    /// The source's answer for a target: kept, unless it could not be asked now (then it is
    /// asked again the next time the reply is laid out).
    func replyTargetLoaded(_ id: String, _ target: ReplyTarget) {
        guard target != .unreachable else { askedReplyTargets.remove(id); return }
        replyTargets[id] = target
        feed.invalidateLayouts()
        if target == .unavailable, seeksReplied == id {
            seeksReplied = nil
            overlays.show("the comment replied to is not available")
        }
    }

    /// Alt-J: to the comment the selected reply answers.
    func jumpToSelectedReply() {
        guard let index = feed.selected, let comment = comments.comment(at: index) else {
            return apply(FeedModel.selectFirst)
        }
        guard let target = comment.replyTo else { return overlays.show("this comment is no reply") }
        jumpToReplied(target)
    }

    /// Goes to the comment with `id`, selected; loads older pages first while it is not loaded.
    func jumpToReplied(_ id: String) {
        if let index = comments.index(ofComment: id, limit: comments.count) {
            seeksReplied = nil
            feed.selected = index
            feed.scroll.scrollTo(comment: index, animated: true, at: now)
            return
        }
        // Pages that cannot hold it are not loaded: the post is above them all, and a target the
        // server said it cannot give (deleted for good, another room's) is in none of them.
        if id == source.replyTargets?.postCommentID {
            seeksReplied = nil
            // The walk's own line says how far it came; with all loaded, this says where it went.
            overlays.show("it replies to the post")
            return seekTop()
        }
        if replyTargets[id] == .unavailable { return overlays.show("the comment replied to is not available") }
        guard comments.hasOlder else { return overlays.show("the comment replied to is not in this thread") }
        seeksReplied = id
        replyPagesLoaded = 0
        overlays.show("loading older comments to find the one replied to…")
        loadOlderForReply()
    }

    /// An older page came while Alt-J looks for `id`: there it is, or the next page is asked for.
    func olderPageArrived(seeking id: String, in list: [Comment], hasMore: Bool) {
        if list.contains(where: { $0.id == id }) { return jumpToReplied(id) }
        replyPagesLoaded += 1
        guard hasMore, replyPagesLoaded < Self.replyTargetPages else {
            seeksReplied = nil
            return overlays.show("the comment replied to is further back than \(replyPagesLoaded) pages")
        }
        loadOlderForReply()
    }

    private func loadOlderForReply() {
        guard !isLoadingOlder, let olderPages = source.olderPages else { return }
        isLoadingOlder = true
        olderPages.loadOlderComments()
    }
}
