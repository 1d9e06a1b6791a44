import ScrollEngine
import ThreadModel

/// The @mention picker: opening on `@`, re-ranking as the query grows, keys, inserting.
extension CommentApp {
    /// The ranker over the thread's users (rebuilt when users join).
    var ranker: MentionRanker {
        if let mentionRanker { return mentionRanker }
        // Recency from the latest comments only: a big file's older ones stay undecoded.
        let recent = max(0, commentCount - Self.recencyWindow)..<commentCount
        let comments = recent.compactMap { try? feedComment(at: $0).get() }
        let ranker = MentionRanker(users: thread.users.filter { $0.id != me.id }, recency: MentionRanker.recency(of: comments))
        mentionRanker = ranker
        return ranker
    }

    static let recencyWindow = 1000

    /// Opens, updates or closes the picker after the draft changed by typing.
    func updateMentionPicker(typed: Bool) {
        if let picker = mentionPicker {
            guard let token = openToken(startingAt: picker.token.lowerBound) else { return closeMentionPicker() }
            let query = String(draft.text.characters.dropFirst(token.lowerBound + 1).prefix(token.count - 1))
            guard query != picker.query else { return }
            let results = ranker.rank(query, limit: MentionPicker.limit)
            // A name may have spaces, so a space keeps the list open while someone still matches.
            if results.total == 0, query.last?.isWhitespace == true { return closeMentionPicker() }
            picker.update(token: token, query: query, results: results, now: now)
        } else if typed, let found = draft.mentionQuery, found.range.lowerBound != dismissedMentionToken {
            let results = ranker.rank(found.query, limit: MentionPicker.limit)
            mentionPicker = MentionPicker(token: found.range, query: found.query, results: results, feed: regions.feed, now: now)
        }
    }

    /// The token from an `@` at `start` to the caret, while the caret stays in it on one line.
    private func openToken(startingAt start: Int) -> Range<Int>? {
        let caret = draft.cursorOffset
        guard draft.selectedOffsets.isEmpty, caret > start, start < draft.text.characters.count else { return nil }
        let characters = draft.text.characters
        let at = characters.index(characters.startIndex, offsetBy: start)
        guard characters[at] == "@", draft.text[at...at].runs.first?.attributes[CommentAttributes.MentionAttribute.self] == nil
        else { return nil }
        let typed = characters[at..<characters.index(at, offsetBy: caret - start)]
        guard !typed.contains("\n") else { return nil }
        return start..<caret
    }

    /// Closes the picker; the token it was for does not reopen it until it is typed again.
    func closeMentionPicker(dismissed: Bool = false) {
        if dismissed, let picker = mentionPicker { dismissedMentionToken = picker.token.lowerBound }
        mentionPicker = nil
    }

    /// Inserts a user as an atomic mention in place of the token, and closes the picker.
    func insertMention(_ user: User) {
        guard let picker = mentionPicker else { return }
        draft.insertMention(handle: user.handle, userID: user.id, replacing: picker.token)
        mentionPicker = nil
        dismissedMentionToken = nil
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
            guard let user = picker.highlightedUser else { closeMentionPicker(dismissed: true); return true }
            insertMention(user)
        case (.escape, []): closeMentionPicker(dismissed: true)
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
