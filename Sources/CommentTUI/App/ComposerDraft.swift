/// The text being written and the cursor in it (a Character offset).
///
/// A plain-text draft with readline editing; the rich document with atomic mentions grows
/// out of this in the composer work.
public struct ComposerDraft: Equatable, Sendable {
    public private(set) var text: String = ""
    /// The cursor, as a count of Characters before it.
    public private(set) var cursor: Int = 0
    /// What Ctrl-K/U/W removed last, for Ctrl-Y.
    public private(set) var killBuffer: String = ""

    public init(text: String = "") {
        self.text = text
        cursor = text.count
    }

    public var isEmpty: Bool { text.isEmpty }

    private func index(_ offset: Int) -> String.Index { text.index(text.startIndex, offsetBy: offset) }

    /// Inserts text at the cursor.
    public mutating func insert(_ s: String) {
        text.insert(contentsOf: s, at: index(cursor))
        cursor += s.count
    }

    /// Deletes the character before the cursor.
    public mutating func deleteBackward() {
        guard cursor > 0 else { return }
        text.remove(at: index(cursor - 1))
        cursor -= 1
    }

    /// Deletes the character under the cursor.
    public mutating func deleteForward() {
        guard cursor < text.count else { return }
        text.remove(at: index(cursor))
    }

    /// Moves the cursor by characters.
    public mutating func move(by delta: Int) { cursor = min(max(0, cursor + delta), text.count) }

    /// Moves to the start of the line the cursor is on.
    public mutating func moveToLineStart() {
        let before = text[..<index(cursor)]
        cursor = before.lastIndex(of: "\n").map { text.distance(from: text.startIndex, to: $0) + 1 } ?? 0
    }

    /// Moves to the end of the line the cursor is on.
    public mutating func moveToLineEnd() {
        let after = text[index(cursor)...]
        cursor = after.firstIndex(of: "\n").map { text.distance(from: text.startIndex, to: $0) } ?? text.count
    }

    /// The offset of the start of the word before the cursor (readline's Alt-B).
    public func wordStart(before offset: Int) -> Int {
        let chars = Array(text)
        var i = offset
        while i > 0, !chars[i - 1].isLetter && !chars[i - 1].isNumber { i -= 1 }
        while i > 0, chars[i - 1].isLetter || chars[i - 1].isNumber { i -= 1 }
        return i
    }

    /// The offset of the end of the word after the cursor (readline's Alt-F).
    public func wordEnd(after offset: Int) -> Int {
        let chars = Array(text)
        var i = offset
        while i < chars.count, !chars[i].isLetter && !chars[i].isNumber { i += 1 }
        while i < chars.count, chars[i].isLetter || chars[i].isNumber { i += 1 }
        return i
    }

    /// Moves one word left or right.
    public mutating func moveWord(forward: Bool) {
        cursor = forward ? wordEnd(after: cursor) : wordStart(before: cursor)
    }

    /// Removes a span into the kill buffer.
    public mutating func kill(from start: Int, to end: Int) {
        let lo = max(0, min(start, end)), hi = min(text.count, max(start, end))
        guard lo < hi else { return }
        killBuffer = String(text[index(lo)..<index(hi)])
        text.removeSubrange(index(lo)..<index(hi))
        cursor = lo
    }

    /// Ctrl-K: kill to the end of the line (or the newline itself at a line's end).
    public mutating func killToLineEnd() {
        var end = cursor
        let chars = Array(text)
        while end < chars.count, chars[end] != "\n" { end += 1 }
        if end == cursor, end < chars.count { end += 1 }
        kill(from: cursor, to: end)
    }

    /// Ctrl-U: kill to the start of the line.
    public mutating func killToLineStart() {
        let end = cursor
        moveToLineStart()
        kill(from: cursor, to: end)
    }

    /// Ctrl-W: kill the word before the cursor.
    public mutating func killWordBackward() { kill(from: wordStart(before: cursor), to: cursor) }

    /// Alt-D: kill the word after the cursor.
    public mutating func killWordForward() { kill(from: cursor, to: wordEnd(after: cursor)) }

    /// Ctrl-Y: insert the kill buffer.
    public mutating func yank() { insert(killBuffer) }

    /// Empties the draft (after sending).
    public mutating func clear() { text = ""; cursor = 0 }
}
