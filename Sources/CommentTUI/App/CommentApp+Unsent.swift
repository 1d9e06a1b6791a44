import Foundation
import ScrollEngine
import ThreadModel

/// Comments of the reader's that are not sent (refused for good, given up on, held): the keys
/// that retry one, take it back into the composer or discard it, and what quitting says of those
/// still waiting.
extension CommentApp {
    /// What the status bar says of a comment not sent: the reason and the keys.
    static func notSentNotice(_ reason: String, count: Int = 1, retries: Bool = true) -> String {
        let what = count == 1 ? "not sent" : "\(count) comments not sent"
        // No retry where the thread takes no comments (a room switched to encryption).
        return "\(what): \(reason) — " + (retries ? "Enter retries · " : "") + "Alt-T edits · Alt-X discards"
    }

    /// The reader's comments not sent, oldest first, by position.
    private var notSentPositions: [Int] {
        deliveries.compactMap { id, state in
            if case .failed = state { comments.indexOfAdded(id: id) } else { nil }
        }.sorted()
    }

    /// The comment not sent the keys act on: the selected one if it is not sent, else the oldest.
    var notSentTarget: (index: Int, comment: Comment)? {
        let positions = notSentPositions
        guard let index = selectedNotSent ?? positions.first,
              let comment = comments.comment(at: index) else { return nil }
        return (index, comment)
    }

    /// The selected comment's position, when it is one not sent.
    private var selectedNotSent: Int? { feed.selected.flatMap { notSentPositions.contains($0) ? $0 : nil } }

    /// How long after a first Alt-X a second one confirms discarding the oldest not sent.
    static let discardConfirmSeconds = 3.0

    /// Alt-T: the comment not sent comes back into the composer (before what is typed there) and
    /// leaves the feed and the outbox; sending it again is sending a new comment.
    func takeBackNotSent() {
        guard let target = notSentTarget else { return overlays.show("no comment waits unsent") }
        let typed = composer.bodyToSend == nil ? [] : [composer.draft.markdown]
        composer.replaceAll(withEdited: ([target.comment.body] + typed).joined(separator: "\n\n"), handles: comments.handleID)
        // The outbox lets go of it only once the draft on disk holds it (saved now, not at the
        // next debounced save): a crash in between must not lose it. A source keeping nothing on
        // disk (no draft file) keeps no outbox either.
        guard source.draftFile != nil else {
            remove(target)
            return overlays.show("taken back into the composer")
        }
        let unsaved = composer.keepsDraftOnDisk ? composer.saveIfDue(force: true).map { VisibleText.escape("\($0)") } : "drafts are not saved this session"
        remove(target, fromSource: unsaved == nil)
        if let unsaved {
            overlays.show("taken back into the composer; the draft is not saved (\(unsaved)), so the outbox keeps it too", error: true)
        } else {
            overlays.show("taken back into the composer")
        }
    }

    /// Alt-X: the comment not sent is discarded, from the feed and the outbox: the selected one at
    /// once; else the oldest, once a second Alt-X within 3 s confirms (one key must not lose it).
    func discardNotSent() {
        guard let target = notSentTarget else { return overlays.show("no comment waits unsent") }
        if selectedNotSent == nil {
            let asked = discardAsked.flatMap { $0.id == target.comment.id ? $0.at : nil }
            guard let asked, now - asked <= Self.discardConfirmSeconds else {
                discardAsked = (target.comment.id, now)
                return overlays.show("Alt-X again to discard the oldest comment not sent")
            }
        }
        discardAsked = nil
        remove(target)
        overlays.show("comment discarded")
    }

    /// Takes the comment out of the feed and, `fromSource`, out of the source and its outbox.
    private func remove(_ target: (index: Int, comment: Comment), fromSource: Bool = true) {
        if fromSource { source.discardUnsent(id: target.comment.id) }
        deliveries[target.comment.id] = nil
        guard let index = comments.removeWaiting(id: target.comment.id) else { return }
        let wasSelected = feed.selected == index
        feed.commentsReplaced(at: index, removed: 1, inserted: 0)
        if wasSelected || feed.selected.map({ $0 >= comments.count }) == true { feed.selected = nil }
    }

    /// At quit, for the terminal: how many of the reader's comments are not in the thread and
    /// where they wait (nil when none wait, or the source keeps no outbox).
    public var unsentAtQuit: String? {
        guard !deliveries.isEmpty, let path = source.outboxPath else { return nil }
        let refused = deliveries.values.filter { if case .failed = $0 { true } else { false } }.count
        let pending = deliveries.count - refused
        let place = "in \(VisibleText.escape(path))"
        var parts: [String] = []
        if pending > 0 {
            parts.append("\(Self.count(pending)) not sent yet; \(pending == 1 ? "it waits" : "they wait") \(place) and \(pending == 1 ? "is" : "are") sent when the thread is next open")
        }
        if refused > 0 {
            parts.append("\(Self.count(refused)) not sent; \(refused == 1 ? "it waits" : "they wait") \(place) to be retried, edited or discarded")
        }
        return parts.joined(separator: "\n")
    }

    private static func count(_ n: Int) -> String { n == 1 ? "1 comment" : "\(n) comments" }
}
