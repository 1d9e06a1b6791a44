import ScrollEngine
import ThreadModel

/// The @mention picker: opening on `@`, re-ranking as the query grows, keys, inserting.
extension CommentApp {
    /// The ranker over the thread's users (rebuilt when users join).
    var ranker: MentionRanker {
        if let mentionRanker, !mentionRecencyIsStale { return mentionRanker }
        let ranker = mentionRanker.map { $0.withRecency(recency) }
            ?? MentionRanker(users: thread.users.filter { $0.id != me.id }, recency: recency)
        mentionRanker = ranker
        mentionRecencyIsStale = false
        return ranker
    }

    /// Who wrote last, from the latest comments only: a big file's older ones stay undecoded.
    private var recency: [String: Int] {
        let recent = max(0, commentCount - Self.recencyWindow)..<commentCount
        return MentionRanker.recency(of: recent.compactMap { try? feedComment(at: $0).get() })
    }

    static let recencyWindow = 1000

    /// Opens, updates or closes the picker after an event.
    ///
    /// Typing `@` at the start of a word opens it; typed characters and Backspace grow and
    /// shrink the query; any other change of the draft or the caret (motion, a click, a paste,
    /// undo, a kill) means the token is no longer being typed, and closes it.
    func updateMentionPicker(after edit: DraftEdit?, draftChanged: Bool) {
        guard let picker = mentionPicker else {
            if case .typed("@")? = edit, let found = draft.mentionQuery, found.query.isEmpty {
                mentionPicker = MentionPicker(query: "", results: ranker.rank("", limit: MentionPicker.limit), feed: regions.feed, now: now)
            }
            return
        }
        guard draftChanged else { return }
        let length: Int
        switch edit {
        case .typed?: length = picker.query.count + 1
        case .deletedBackward? where !picker.query.isEmpty: length = picker.query.count - 1
        default: return closeMentionPicker()
        }
        guard let query = typedQuery(length: length) else { return closeMentionPicker() }
        let results = ranker.rank(query, limit: MentionPicker.limit)
        // A name may have spaces, so a space keeps the list open while someone still matches.
        if results.total == 0, query.last?.isWhitespace == true { return closeMentionPicker() }
        picker.update(query: query, results: results, now: now)
    }

    /// The `length` characters typed after an `@` that sits right before them and the caret;
    /// nil when the text there is not such a token (on one line) any more. Walks back from
    /// the caret only, so a keystroke in a huge draft costs what it costs in a short one.
    private func typedQuery(length: Int) -> String? {
        guard draft.selection.isEmpty else { return nil }
        let characters = draft.text.characters
        var index = draft.caret
        var typed: [Character] = []
        for _ in 0...length {
            guard index > characters.startIndex else { return nil }
            index = characters.index(before: index)
            typed.append(characters[index])
        }
        guard typed.last == "@", !typed.contains("\n") else { return nil }
        return String(typed.dropLast().reversed())
    }

    /// Closes the picker.
    func closeMentionPicker() {
        mentionPicker = nil
    }

    /// Inserts a user as an atomic mention in place of the typed token, and closes the picker.
    func insertMention(_ user: User) {
        guard let picker = mentionPicker else { return }
        let caret = draft.cursorOffset
        draft.insertMention(handle: user.handle, userID: user.id, replacing: (caret - picker.query.count - 1)..<caret)
        mentionPicker = nil
    }

    /// Keys the open picker takes before the composer; false when the key is not the picker's.
    func handlePickerKey(_ press: KeyPress) -> Bool {
        guard let picker = mentionPicker else { return false }
        switch (press.key, press.modifiers) {
        case (.up, []): picker.moveHighlight(by: -1, at: now)
        case (.down, []): picker.moveHighlight(by: 1, at: now)
        case (.pageUp, []): picker.moveHighlight(by: -picker.pageRows, at: now)
        case (.pageDown, []): picker.moveHighlight(by: picker.pageRows, at: now)
        case (.tab, []), (.enter, []):
            // With no one to insert, the key does what it does without the list (Enter sends).
            guard let user = picker.highlightedUser else { closeMentionPicker(); return false }
            insertMention(user)
        case (.escape, []): closeMentionPicker()
        default: return false
        }
        return true
    }

    /// A mouse event on the picker's own rows: the wheel scrolls the list, a click inserts a user.
    func handlePickerMouse(_ mouse: MouseEvent) {
        guard let picker = mentionPicker else { return }
        switch (mouse.button, mouse.action) {
        case (.wheelUp, _): picker.scroll(.wheel(notches: -1), at: now)
        case (.wheelDown, _): picker.scroll(.wheel(notches: 1), at: now)
        case (.left, .press):
            guard let item = picker.item(atScreenRow: mouse.row), item >= 0 else { return }
            insertMention(picker.results.matches[item].user)
        default: break
        }
    }
}
