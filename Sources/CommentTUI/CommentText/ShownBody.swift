/// The part of a comment body the client parses and lays out: the first
/// `FeedLayout.shownBodyBytes`, or as far as the reader asked to see (`FeedLayout.limit(after:)`).
///
/// A body can be as long as a line the reader takes (8 MiB, from another writer or a server);
/// parsing and laying one out costs over a hundred bytes per byte, so only a prefix is, and the
/// rest waits behind "show more" (a step of at most `FeedLayout.showMoreBytes`). The prefix ends
/// where the writer broke the text when it can (`cut`), and leaves nothing open that would show
/// what a spoiler hides.
struct ShownBody {
    /// The text to parse and lay out.
    let text: String
    /// UTF-8 bytes of the body left out (0: the body is whole).
    let hiddenBytes: Int
    /// UTF-8 bytes of the body the text holds (not what it carries in front or closes after).
    let shownBytes: Int
    /// What the rest of the body must start with to read as it does after this text
    /// (`MarkupLeftOpen`): the open code block's fence line, or the bars of an open spoiler.
    let carry: String

    /// `body` cut to at most `limit` UTF-8 bytes.
    init(_ body: String, limit: Int) { self.init(body[...], limit: limit) }

    /// `body` (the rest of a body, `ShownParts`) cut to at most `limit` UTF-8 bytes, after
    /// `carried` (what the text before it left open, its `carry`).
    init(_ body: Substring, limit: Int, carrying carried: String = "") {
        let utf8 = body.utf8
        // Bars carried in front of a bar would make a run of three, which is no spoiler's.
        let carried = carried == "||" && utf8.first == 0x7C ? "|| " : carried
        guard utf8.count > limit else {
            text = carried + body
            hiddenBytes = 0
            shownBytes = utf8.count
            carry = ""
            return
        }
        let prefix = body[..<Self.cut(body, limit: limit)]
        let open = MarkupLeftOpen(carried + prefix)
        // A spoiler the cut falls in is closed here and opened again in the next part: its
        // hidden text shows in neither. (Bars after `\` or `|` would be escaped or no spoiler's.)
        let closing = !open.spoiler ? "" : prefix.utf8.last == 0x5C || prefix.utf8.last == 0x7C ? " ||" : "||"
        text = carried + prefix + closing
        hiddenBytes = utf8.count - prefix.utf8.count
        shownBytes = prefix.utf8.count
        carry = open.fenceLine.map { $0 + "\n" } ?? (open.spoiler ? "||" : "")
    }

    /// Where `body` is cut to at most `limit` bytes: in the last eighth, as the writer broke it,
    /// at a blank line (between paragraphs), else a line break, else a space (between words);
    /// else between characters (never inside one).
    private static func cut(_ body: Substring, limit: Int) -> String.Index {
        let utf8 = body.utf8
        let limitIndex = utf8.index(utf8.startIndex, offsetBy: max(0, limit))
        let lookBack = utf8.index(limitIndex, offsetBy: -min(limit / 8, limit))
        let window = utf8[lookBack..<limitIndex]
        /// The start of the line break ending the line before `index` (back over a CR before an LF).
        func lineEnd(before index: String.Index) -> String.Index {
            guard index > lookBack else { return index }
            let previous = utf8.index(before: index)
            return utf8[previous] == 0x0D ? previous : index
        }
        var newline = window.lastIndex(of: 0x0A)
        let lastNewline = newline
        while let found = newline {
            // A blank line: the line break before this one ends the line before it.
            let before = lineEnd(before: found)
            if before > lookBack, utf8[utf8.index(before: before)] == 0x0A {
                return lineEnd(before: utf8.index(before: before))
            }
            newline = found > lookBack ? window[..<found].lastIndex(of: 0x0A) : nil
        }
        if let lastNewline { return lineEnd(before: lastNewline) }
        if let space = window.lastIndex(of: 0x20) { return space }
        // Slicing rounds down to a scalar boundary; the last character may still be cut short
        // (a flag, a family emoji), so it goes too.
        let prefix = body[..<limitIndex]
        return prefix.isEmpty ? prefix.endIndex : prefix.dropLast().endIndex
    }

    /// "5.9 MB" or "48 KB": how much is left out, for the marker.
    static func describe(bytes: Int) -> String {
        if bytes >= 1_000_000 { return "\((Double(bytes) / 100_000).rounded() / 10) MB" }
        return "\(max(1, (bytes + 999) / 1_000)) KB"
    }
}
