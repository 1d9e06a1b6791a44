import ThreadModel

/// The reader's reactions: Alt-K opens the picker on the selected comment, a choice toggles
/// their reaction through the source (a room's `m.reaction`, taken back by a redaction).
extension CommentApp {
    /// The most recent keys kept (offered first in the picker).
    static let recentReactionCount = 4

    /// Alt-K: opens the picker for the selected comment.
    func openReactionPicker() {
        guard source.reacting != nil else { return overlays.show("this thread takes no reactions (a demo in memory)") }
        guard let index = feed.selected, let comment = comments.comment(at: index) else {
            return apply(FeedModel.selectFirst)
        }
        // Ours still on its way (or not sent) is in no thread yet: a reaction would name nothing.
        guard deliveries[comment.id] == nil else { return overlays.show("no reaction: this comment is not sent yet", error: true) }
        // Readers and rooms keep no reactions to a deleted comment: one would never show.
        guard !comment.isDeleted else { return overlays.show("no reaction: this comment is deleted", error: true) }
        mentions.close()
        reactionPicker = ReactionPicker(commentID: comment.id, recent: recentReactions)
        overlays.clearMessage()
    }

    /// A key typed into the picker (a digit may pick).
    func typeIntoReactionPicker(_ character: Character) {
        guard let key = reactionPicker?.type(character) else { return }
        react(with: key)
    }

    /// Enter in the picker.
    func chooseReaction() {
        guard let picker = reactionPicker else { return }
        switch picker.chosen {
        case .success(let key): react(with: key)
        case .failure(let refusal): overlays.show(refusal.message, error: true)
        }
    }

    /// Toggles the reader's reaction with `key` on the picker's comment, and closes the picker.
    private func react(with key: String) {
        guard let picker = reactionPicker, let reacting = source.reacting else { return }
        reactionPicker = nil
        switch reacting.toggleReaction(key, on: picker.commentID) {
        case .adding:
            recentReactions.removeAll { $0 == key }
            recentReactions.insert(key, at: 0)
            if recentReactions.count > Self.recentReactionCount { recentReactions.removeLast() }
            overlays.show("reacting \(key)…")
        case .removing:
            overlays.show("taking back \(key)…")
        case .cancelled:
            overlays.show("\(key) was not sent yet: taken back")
        case .refused(let reason):
            overlays.show("no reaction: \(reason)", error: true)
        }
    }
}
