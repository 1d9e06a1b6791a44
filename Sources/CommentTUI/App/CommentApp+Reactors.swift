import ThreadModel

/// F2 on the selected comment with reactions: a page naming who reacted with each key, the
/// reader marked. Names and keys are hostile text: shown with their controls as placeholders.
extension CommentApp {
    /// Shows who reacted to the selected comment; false when no comment with reactions is
    /// selected (F2 is then the hit-test inspector).
    func showReactors() -> Bool {
        guard let index = feed.selected, let comment = comments.comment(at: index), !comment.isDeleted,
              reactions[comment.id]?.isEmpty == false, let reacting = source.reacting else { return false }
        let lines = reacting.reactors(of: comment.id).map { key, authors in
            KeyHelp(Self.shown(key), authors.map { id in
                let name = Self.shown(comments.thread.user(id: id)?.name ?? id)
                return id == me.id ? "\(name) (you)" : name
            }.joined(separator: ", "))
        }
        guard !lines.isEmpty else { return false }
        let author = Self.shown(comments.thread.user(id: comment.author)?.name ?? comment.author)
        show(Pager(.reactors(lines), title: "Reactions", details: "to \(author)'s comment", columns: size.columns, rows: size.rows))
        return true
    }

    /// Text from a message as one line with no control reaching the terminal.
    private static func shown(_ text: String) -> String {
        VisibleControls.sanitize(text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\t", with: " "))
    }
}
