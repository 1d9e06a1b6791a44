import Foundation

/// What a key asks of the draft, found near the caret: a key in a 1 MB draft costs what its
/// edit costs, not a count of the Characters from the draft's start (`offset(of:)` and
/// `index(atOffset:)` read the whole prefix, which Up, a click or a mention's insertion did on
/// every key).
extension ComposerDocument {
    /// Whether the draft holds more than white space: its Markdown, trimmed, is not empty (what
    /// is sent holds every scalar of the text, and adds markers only around text that is not
    /// white space). Looks at the scalar before the caret first (the one just typed), then
    /// from the start to the first scalar that is not white space: only a draft of nothing but
    /// white space is read whole.
    public var hasVisibleText: Bool {
        func isVisible(_ s: Unicode.Scalar) -> Bool { !CharacterSet.whitespacesAndNewlines.contains(s) }
        if caret > text.startIndex, isVisible(text.unicodeScalars[text.unicodeScalars.index(before: caret)]) { return true }
        return text.unicodeScalars.contains(where: isVisible)
    }

    /// The `@query` the caret ends, without `@` (see `mentionQuery`), found without counting
    /// offsets from the draft's start.
    public var typedMentionQuery: String? { mentionQueryAtCaret?.query }

    /// The index `distance` Characters from the caret (negative: before it), clamped to the text.
    /// Each stretch between two sure breaks is segmented once and stepped inside: a long line
    /// of accented letters or emoji (no sure break in it) is read once, not once a step.
    func index(charactersFromCaret distance: Int) -> Index {
        var i = caret, remaining = distance.magnitude
        if distance < 0 {
            while remaining > 0, i > text.startIndex {
                // The Character starts from the stretch's start to `i`, nearest last.
                let starts = characterStarts(from: sureBreak(atOrBefore: text.unicodeScalars.index(before: i)), to: i).filter { $0 < i }
                guard let first = starts.first else { return text.startIndex }
                if remaining <= starts.count { return starts[starts.count - Int(remaining)] }
                remaining -= UInt(starts.count)
                i = first
            }
        } else {
            while remaining > 0, i < text.endIndex {
                let upper = sureBreak(after: i)
                // The Character ends after `i` up to the stretch's end, nearest first.
                let ends = characterStarts(from: sureBreak(atOrBefore: i), to: upper).filter { $0 > i } + [upper]
                if remaining <= ends.count { return ends[Int(remaining) - 1] }
                remaining -= UInt(ends.count)
                i = upper
            }
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
