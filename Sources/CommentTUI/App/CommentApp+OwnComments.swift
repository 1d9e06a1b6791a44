import Foundation
import ScrollEngine
import ThreadModel

/// What Alt-C's edit keeps while the composer holds the comment: the comment as it was, and the
/// draft (and its save) that come back when the edit is sent or left.
struct OwnCommentEdit {
    var comment: Comment
    var draftBefore: ComposerDocument
    var replyingTo: String?
    /// The draft's save, set aside so that the file keeps the draft, not the edit.
    var save: ((Data?) throws -> Void)?
}

/// The reader's own comments after sending: Alt-C brings the selected one back into the
/// composer (Enter sends the edit, Esc leaves it), Alt-W deletes it after a y/n. Others'
/// comments are not changed; the change shows at once and the source's echo changes nothing more.
extension CommentApp {
    /// The selected comment, if the reader may change it; else what the status bar says.
    private func ownSelected(_ verb: String) -> Result<Comment, OwnCommentRefusal> {
        guard let index = feed.selected, let comment = comments.comment(at: index) else {
            return .failure(OwnCommentRefusal(FeedModel.selectFirst))
        }
        guard comment.author == me.id, !source.isPlaceholder(comment.id) else {
            return .failure(OwnCommentRefusal(.message("only your own comments can be \(verb)")))
        }
        guard deliveries[comment.id] == nil else {
            return .failure(OwnCommentRefusal(.message("not sent yet: Alt-T takes it back into the composer")))
        }
        guard !comment.isDeleted else { return .failure(OwnCommentRefusal(.message("this comment was deleted"))) }
        guard source.commentEditing != nil else {
            return .failure(OwnCommentRefusal(.message("comments in this thread cannot be \(verb)")))
        }
        return .success(comment)
    }

    /// Whether an edit holds the composer, said in the status bar: what would put other text
    /// there (Alt-R's quote, Alt-T's comment) or act on another comment (Alt-W) waits for it.
    func isBusyEditing() -> Bool {
        guard editing != nil else { return false }
        overlays.show(Self.editingNotice)
        return true
    }

    static let editingNotice = "editing your comment — Enter saves · Esc leaves"

    /// Alt-C: the selected comment of the reader's into the composer, mentions as tokens; the
    /// draft waits until the edit is sent or left.
    func startEditingSelected() {
        if isBusyEditing() { return }
        let comment: Comment
        switch ownSelected("edited") {
        case .failure(let refusal): return apply(refusal.effect)
        case .success(let own): comment = own
        }
        if let refusal = source.commentEditing?.editRefusal(of: comment) { return overlays.show(refusal) }
        mentions.close()
        // The draft on disk is the draft: saved now, and not overwritten by the edit.
        composer.saveIfDue(force: true)
        let before = composer.exchangeDraft(for: ComposerDocument())
        editing = OwnCommentEdit(comment: comment, draftBefore: before, replyingTo: replyingTo, save: composer.save)
        composer.save = nil
        replyingTo = nil
        composer.replaceAll(withEdited: comment.body, handles: comments.handleID)
        overlays.show(Self.editingNotice)
    }

    /// Enter while editing: the edit is sent and shown, and the draft comes back.
    func finishEditing() {
        guard let edit = editing else { return }
        guard let body = composer.bodyToSend else { return overlays.show("the edit is empty — Esc leaves it; then Alt-W deletes the comment") }
        // As it is now: another client of the reader's may have changed it since Alt-C.
        guard let comment = currentComment(edit.comment), !comment.isDeleted else {
            return overlays.show("the comment was deleted meanwhile — Esc leaves the edit", error: true)
        }
        guard body != comment.body else {
            endEditing()
            return overlays.show("unchanged")
        }
        let change = CommentChange(comment: comment.id, author: me.id, created: wholeSecondNow, kind: .edit(body: body))
        if let failure = source.commentEditing?.change(change, of: comment) {
            return overlays.show("not edited, the edit is kept: \(failure.message)", error: true)
        }
        applyOwn(change, to: comment)
        endEditing()
        overlays.show("edited")
    }

    /// Esc while editing: the comment stays as it was and the draft comes back; false when not editing.
    func leaveEditing() -> Bool {
        guard editing != nil else { return false }
        endEditing()
        overlays.show("edit left; the comment is unchanged")
        return true
    }

    /// The draft (and its save) back from under the edit, the edit left (also at quit).
    func endEditing() {
        guard let edit = editing else { return }
        editing = nil
        mentions.close()
        _ = composer.exchangeDraft(for: edit.draftBefore)
        composer.save = edit.save
        replyingTo = edit.replyingTo
    }

    /// Alt-W: asks whether to delete the selected comment of the reader's; the next key answers.
    func askToDeleteSelected() {
        switch ownSelected("deleted") {
        case .failure(let refusal): apply(refusal.effect)
        case .success(let comment):
            deleteAsked = comment
            overlays.show("delete your comment? y/n")
        }
    }

    /// The input after Alt-W: y or Y deletes; any other key (Enter too), a paste or a click
    /// keeps the comment, and is not typed or acted on. False when no question is asked.
    func answerDelete(_ event: InputEvent) -> Bool {
        guard let asked = deleteAsked else { return false }
        switch event {
        case .key, .paste: break
        case .mouse(let mouse) where mouse.action != .move: break
        // The pointer only passing over, focus and the terminal's answers are no answer.
        default: return false
        }
        deleteAsked = nil
        guard case .key(let press) = event, press.modifiers.subtracting(.shift).isEmpty,
              press.key == .character("y") || press.key == .character("Y") else {
            overlays.show("kept your comment")
            return true
        }
        guard let comment = currentComment(asked), !comment.isDeleted else {
            overlays.show("the comment was deleted meanwhile")
            return true
        }
        let change = CommentChange(comment: comment.id, author: me.id, created: wholeSecondNow, kind: .delete)
        if let failure = source.commentEditing?.change(change, of: comment) {
            overlays.show("not deleted: \(failure.message)", error: true)
            return true
        }
        applyOwn(change, to: comment)
        overlays.show("deleted")
        return true
    }

    /// The comment as the feed holds it now (a change may have come since the key that asked);
    /// nil when it is gone.
    private func currentComment(_ asked: Comment) -> Comment? {
        guard let index = comments.indexForChange(ofComment: asked.id) ?? comments.index(ofComment: asked.id),
              let comment = comments.comment(at: index), comment.id == asked.id else { return nil }
        return comment
    }

    /// Shows our change at once; its echo from the source is then passed over.
    private func applyOwn(_ change: CommentChange, to comment: Comment) {
        sentChanges.insert(change)
        showChanged(comment.applying(change))
    }

    /// A change read from the source (a thread file's record): applied to the comment it names
    /// when its author made it; our own, already shown, is passed over.
    func receiveChange(_ change: CommentChange) {
        if sentChanges.remove(change) != nil { return }
        guard let index = comments.indexForChange(ofComment: change.comment),
              let comment = comments.comment(at: index), change.refusal(for: comment) == nil else { return }
        showChanged(comment.applying(change))
    }

    private func showChanged(_ comment: Comment) {
        comments.replace(comment)
        // An edited or deleted target is quoted anew.
        replyTargets[comment.id] = nil
        feed.invalidateLayouts()
        feed.searchCommentEdited()
    }

    /// Whole seconds: what a thread file stores.
    private var wholeSecondNow: Date { Date(timeIntervalSince1970: wallTime.timeIntervalSince1970.rounded(.down)) }
}

/// Why Alt-C or Alt-W does nothing to the selected comment, as the status bar says it.
struct OwnCommentRefusal: Error {
    var effect: FeedEffect
    init(_ effect: FeedEffect) { self.effect = effect }
}
