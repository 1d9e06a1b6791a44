import ThreadModel

/// Moving between a room's feed and its posts: Enter on a selected post's root opens the post,
/// Esc in a post with nothing else to leave goes back to the room. The client carries them out
/// (it keeps each thread's draft and position); the app only says when they apply.
extension CommentApp {
    /// The post the selected comment is the root of, when Enter would open it: the draft empty,
    /// no question asked and no list, search or page over the feed.
    var selectedPostRoot: String? {
        guard deleteAsked == nil, composer.draft.isEmpty, reactionPicker == nil, feed.search == nil, !mentions.isOpen,
              let position = feed.selected, let comment = comment(at: position),
              let posts = source as? PostOpening else { return nil }
        return posts.postRoot(ofComment: comment.id)
    }

    /// Whether Esc leaves this post for its room: nothing selected, searched, edited, asked, said
    /// or open to close (Esc closes that first). Asking changes nothing: no notice is shown here.
    var leavesPostOnEscape: Bool {
        guard let posts = source as? PostOpening, posts.isPost else { return false }
        return deleteAsked == nil && overlays.message == nil && editing == nil && feed.selected == nil && feed.search == nil
            && reactionPicker == nil && !mentions.isOpen
    }

    /// Enter's and Esc's meaning between a room and its posts, when it applies now: the key
    /// sends (Enter) or dismisses (Esc) otherwise, so the map binds them once.
    func postAction(for press: KeyPress) -> KeyAction? {
        switch KeyMap.actions(for: press, in: keyContexts).first {
        case .send?: return selectedPostRoot != nil ? .openPost : nil
        case .dismiss?: return leavesPostOnEscape ? .leavePost : nil
        default: return nil
        }
    }
}
