import ThreadModel

/// Moving between a room's feed and its posts: Enter on a selected post's root opens the post,
/// Esc in a post with nothing else to leave goes back to the room. The client carries them out
/// (it keeps each thread's draft and position); the app only says when they apply.
extension CommentApp {
    /// The post the selected comment is the root of, when Enter would open it: the draft empty
    /// and no list, search or page over the feed.
    var selectedPostRoot: String? {
        guard composer.draft.isEmpty, reactionPicker == nil, feed.search == nil, !mentions.isOpen,
              let position = feed.selected, let comment = comment(at: position),
              let posts = source as? PostOpening else { return nil }
        return posts.postRoot(ofComment: comment.id)
    }

    /// Whether Esc leaves this post for its room: nothing selected, searched, edited or open to close.
    var leavesPostOnEscape: Bool {
        guard let posts = source as? PostOpening, posts.isPost else { return false }
        return feed.selected == nil && feed.search == nil && reactionPicker == nil && !mentions.isOpen && !isBusyEditing()
    }

    /// The post key's action, when it applies now.
    func postAction(for press: KeyPress) -> KeyAction? {
        for action in KeyMap.actions(for: press, in: keyContexts) {
            if action == .openPost, selectedPostRoot != nil { return action }
            if action == .leavePost, leavesPostOnEscape { return action }
        }
        return nil
    }
}
