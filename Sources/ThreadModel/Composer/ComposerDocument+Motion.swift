import Foundation

/// One step of motion or deletion: a Character, or a whole mention.
struct ComposerUnit {
    var range: Range<AttributedString.Index>
    var isMention: Bool
    /// Letters and digits make words; a mention is a word of its own.
    var isWord: Bool
}

extension ComposerDocument {
    typealias Index = AttributedString.Index

    /// The mention run containing the character at `i`, if any.
    func mentionRun(at i: Index) -> Range<Index>? {
        guard i < text.endIndex else { return nil }
        let (value, range) = text.runs[CommentAttributes.MentionAttribute.self][i]
        // Two adjacent mentions of the same user share one run: they move and delete as one.
        return value == nil ? nil : range
    }

    /// `i`, or the nearest end of the mention it falls strictly inside.
    /// Puts the caret at a Character offset or, inside a mention, at whichever end of it is
    /// nearer (a click on the mention's second half lands after it).
    public mutating func placeCaret(nearest offset: Int) {
        let index = index(atOffset: offset)
        let start = mentionBoundary(index, forward: false), end = mentionBoundary(index, forward: true)
        guard start != end else { return select(offset..<offset) }
        let before = self.offset(of: start), after = self.offset(of: end)
        let target = offset - before <= after - offset ? before : after
        select(target..<target)
    }

    func mentionBoundary(_ i: Index, forward: Bool) -> Index {
        guard let run = mentionRun(at: i), run.lowerBound < i else { return i }
        return forward ? run.upperBound : run.lowerBound
    }

    /// The unit ending at `i`.
    func unit(before i: Index) -> ComposerUnit? {
        guard i > text.startIndex else { return nil }
        let p = characterStart(before: i)
        if let run = mentionRun(at: p) { return ComposerUnit(range: run.lowerBound..<i, isMention: true, isWord: true) }
        let c = character(at: p)
        return ComposerUnit(range: p..<i, isMention: false, isWord: c.isLetter || c.isNumber)
    }

    /// The unit starting at `i`.
    func unit(after i: Index) -> ComposerUnit? {
        guard i < text.endIndex else { return nil }
        if let run = mentionRun(at: i) { return ComposerUnit(range: i..<run.upperBound, isMention: true, isWord: true) }
        let n = characterEnd(after: i)
        let c = character(at: i)
        return ComposerUnit(range: i..<n, isMention: false, isWord: c.isLetter || c.isNumber)
    }

    /// The start of the word before `i` (readline's Alt-B); a mention is one word.
    func wordStart(before i: Index) -> Index {
        var i = i
        while let u = unit(before: i), !u.isWord { i = u.range.lowerBound }
        if let u = unit(before: i), u.isMention { return u.range.lowerBound }
        while let u = unit(before: i), u.isWord, !u.isMention { i = u.range.lowerBound }
        return i
    }

    /// The end of the word after `i` (readline's Alt-F); a mention is one word.
    func wordEnd(after i: Index) -> Index {
        var i = i
        while let u = unit(after: i), !u.isWord { i = u.range.upperBound }
        if let u = unit(after: i), u.isMention { return u.range.upperBound }
        while let u = unit(after: i), u.isWord, !u.isMention { i = u.range.upperBound }
        return i
    }

    // A line feed is always a Character of its own (the draft holds no CR), so lines are found
    // by scalars.
    func lineStart(_ i: Index) -> Index {
        guard let nl = text.unicodeScalars[text.startIndex..<i].lastIndex(of: "\n") else { return text.startIndex }
        return text.unicodeScalars.index(after: nl)
    }

    func lineEnd(_ i: Index) -> Index {
        text.unicodeScalars[i..<text.endIndex].firstIndex(of: "\n") ?? text.endIndex
    }

    /// Puts the caret at `target`, keeping the anchor when extending.
    mutating func moveCaret(to target: Index, extending: Bool) {
        // Only a mention holding a line break (a rich paste, a restored draft) has a line start
        // or end inside it: the caret goes on to its end in the direction of the motion.
        let target = mentionBoundary(target, forward: target > caret)
        guard extending else { return setSelection(target..<target) }
        let fixed = anchor
        setSelection(min(fixed, target)..<max(fixed, target), caretAtStart: target < fixed)
    }

    /// Moves the caret by `delta` units (a mention is one); without `extending`, a selection
    /// collapses to the side of the motion first.
    public mutating func move(by delta: Int, extending: Bool = false) {
        if !extending, !selection.isEmpty, delta != 0 {
            let end = delta < 0 ? selection.lowerBound : selection.upperBound
            return setSelection(end..<end)
        }
        var i = caret
        for _ in 0..<abs(delta) {
            guard let u = delta < 0 ? unit(before: i) : unit(after: i) else { break }
            i = delta < 0 ? u.range.lowerBound : u.range.upperBound
        }
        moveCaret(to: i, extending: extending)
    }

    /// Moves one word left or right (a mention is one word).
    public mutating func moveWord(forward: Bool, extending: Bool = false) {
        moveCaret(to: forward ? wordEnd(after: caret) : wordStart(before: caret), extending: extending)
    }

    /// Moves to the start of the caret's line.
    public mutating func moveToLineStart(extending: Bool = false) { moveCaret(to: lineStart(caret), extending: extending) }

    /// Moves to the end of the caret's line.
    public mutating func moveToLineEnd(extending: Bool = false) { moveCaret(to: lineEnd(caret), extending: extending) }

    /// Moves to the start of the text.
    public mutating func moveToStart(extending: Bool = false) { moveCaret(to: text.startIndex, extending: extending) }

    /// Moves to the end of the text.
    public mutating func moveToEnd(extending: Bool = false) { moveCaret(to: text.endIndex, extending: extending) }

    /// Selects all the text, caret at the end.
    mutating func selectAll() { setSelection(text.startIndex..<text.endIndex) }

    // MARK: Kill ring

    /// Ctrl-K: kills to the end of the line (or the newline itself at a line's end).
    public mutating func killToLineEnd() {
        var end = lineEnd(caret)
        if end == caret, end < text.endIndex { end = characterEnd(after: end) }
        kill(caret..<end)
    }

    /// Ctrl-U: kills to the start of the line.
    public mutating func killToLineStart() { kill(lineStart(caret)..<caret) }

    /// Ctrl-W: kills the word before the caret (a mention is one word).
    public mutating func killWordBackward() { kill(wordStart(before: caret)..<caret) }

    /// Alt-D: kills the word after the caret (a mention is one word).
    public mutating func killWordForward() { kill(caret..<wordEnd(after: caret)) }

    // MARK: Mention picker

    /// The `@query` token the caret ends, for the mention picker: its Character offsets and the
    /// query without `@`. Only at the start of the text or after whitespace, never over a mention.
    public var mentionQuery: (range: Range<Int>, query: String)? {
        guard let (at, query) = mentionQueryAtCaret else { return nil }
        let start = offset(of: at)
        return (start..<(start + 1 + query.count), query)
    }

    /// The `@query` token the caret ends: where its `@` is, and the query without it. Walks
    /// back from the caret only, so it costs the token's length, not the draft's.
    var mentionQueryAtCaret: (at: Index, query: String)? {
        guard selection.isEmpty else { return nil }
        let end = caret
        var i = end
        while i > text.startIndex {
            let p = characterStart(before: i)
            let c = character(at: p)
            if c == "@" {
                // As the parser reads mentions: not after a word character (`(@` and `"@` are fine).
                if p > text.startIndex, character(at: characterStart(before: p)).unicodeScalars.last?.isWordCharacter == true { return nil }
                guard !text[p..<end].runs.contains(where: { $0[CommentAttributes.MentionAttribute.self] != nil }) else { return nil }
                return (p, String(decoding: text.utf8[i..<end], as: UTF8.self))
            }
            guard c.isLetter || c.isNumber || c == "-" || c == "_" || c == "." else { return nil }
            i = p
        }
        return nil
    }
}
