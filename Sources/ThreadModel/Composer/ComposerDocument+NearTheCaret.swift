import Foundation

/// What a key asks of the draft, found near the caret: a key in a 1 MB draft costs what its
/// edit costs, not a count of the Characters from the draft's start (`offset(of:)` and
/// `index(atOffset:)` read the whole prefix, which Up, a click or a mention's insertion did on
/// every key).
extension ComposerDocument {
    /// Whether the draft holds more than white space: its Markdown, trimmed, is not empty (what
    /// is sent holds every scalar of the text, and adds markers only around text that is not
    /// white space). Looks at the Character before the caret first (the one just typed), then
    /// from the start to the first scalar that is not white space: only a draft of nothing but
    /// white space is read whole.
    public var hasVisibleText: Bool {
        func isVisible(_ s: Unicode.Scalar) -> Bool { !CharacterSet.whitespacesAndNewlines.contains(s) }
        if caret > text.startIndex, text.unicodeScalars[characterStart(before: caret)..<caret].contains(where: isVisible) { return true }
        return text.unicodeScalars.contains(where: isVisible)
    }

    /// The `@query` the caret ends, without `@` (see `mentionQuery`), found without counting
    /// offsets from the draft's start.
    public var typedMentionQuery: String? { mentionQueryAtCaret?.query }

    /// The index `distance` Characters from the caret (negative: before it), clamped to the text.
    func index(charactersFromCaret distance: Int) -> Index {
        var i = caret
        if distance < 0 {
            for _ in 0..<(-distance) where i > text.startIndex { i = characterStart(before: i) }
        } else {
            for _ in 0..<distance where i < text.endIndex { i = characterEnd(after: i) }
        }
        return i
    }

    /// Puts the caret `distance` Characters from where it is or, inside a mention, at whichever
    /// end of it is nearer (as `placeCaret(nearest:)` does with an offset from the start).
    public mutating func placeCaret(charactersFromCaret distance: Int) {
        let index = index(charactersFromCaret: distance)
        let start = mentionBoundary(index, forward: false), end = mentionBoundary(index, forward: true)
        guard start != end else { return setSelection(index..<index) }
        // A mention is short: counting inside it is cheap.
        let before = String(decoding: text.utf8[start..<index], as: UTF8.self).count
        let after = String(decoding: text.utf8[index..<end], as: UTF8.self).count
        let target = before <= after ? start : end
        setSelection(target..<target)
    }

    /// Inserts the mention `@handle` (then a plain space) in place of the `count` Characters
    /// before the caret (the `@query` the mention list was opened with).
    public mutating func insertMention(handle: String, userID: String, replacingCharactersBeforeCaret count: Int) {
        let lower = index(charactersFromCaret: -count)
        insertMention(handle: handle, userID: userID, over: mentionBoundary(lower, forward: false)..<mentionBoundary(caret, forward: true))
    }
}
