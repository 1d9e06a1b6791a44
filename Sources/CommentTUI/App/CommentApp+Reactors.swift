import ThreadModel

/// F2 on the selected comment with reactions: a page naming who reacted with each key, the
/// reader marked; and, first, why its key is of weaker authenticity when it is (key backup, forwarded). Names and keys are hostile text: shown with their controls as placeholders.
extension CommentApp {
    /// Shows who reacted to the selected comment (and the note on its key); false when no
    /// comment with reactions or a key note is selected (F2 is then the hit-test inspector).
    func showReactors() -> Bool {
        guard let index = feed.selected, let comment = comments.comment(at: index), !comment.isDeleted else { return false }
        // A key of weaker authenticity (from the key backup, forwarded) is said first, reactions or not.
        let note = source.keyNote(of: comment.id).map { [KeyHelp("🔑 key", Self.shown($0))] } ?? []
        guard reactions[comment.id]?.isEmpty == false || !note.isEmpty else { return false }
        let lines = note + (source.reacting?.reactors(of: comment.id) ?? []).map { key, authors in
            KeyHelp(Self.shown(key), authors.map { id in
                let name = Self.shown(comments.thread.user(id: id)?.name ?? id)
                return id == me.id ? "\(name) (you)" : name
            }.joined(separator: ", "))
        }
        guard !lines.isEmpty else { return false }
        let author = Self.shown(comments.thread.user(id: comment.author)?.name ?? comment.author)
        let title = lines.count == note.count ? "Encryption" : "Reactions"
        show(Pager(.reactors(lines), title: title, details: "to \(author)'s comment", columns: size.columns, rows: size.rows))
        return true
    }

    /// Text from a message as one line with no control reaching the terminal.
    private static func shown(_ text: String) -> String {
        VisibleControls.sanitize(text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\t", with: " "))
    }
}
