extension CommentMarkup {
    /// Rounds that escape only the delimiters that formed, before one that escapes every `{`,
    /// `|` and `}` read as text. Real text needs one; more takes nesting built for it.
    private static let minimalEscapeRounds = 8

    /// `markdown` with a backslash before each `||`, `{`, `|` and `}` that would make a spoiler
    /// or a ruby annotation, so that it shows as typed, as on GitHub (which has neither).
    ///
    /// The parser reports the delimiters that formed; a backslash goes before those GitHub reads
    /// as plain text, where it does not show. A `|` or `}` that an annotation's braces hid inside
    /// raw HTML or an autolink (`{<a title=x|y>}`) keeps none, as it would show there, and the
    /// escaped `{` undoes the annotation anyway. Undoing one pair may let another form
    /// (`{x{a|b}|c}`), so this repeats until none does. Text where none forms comes back as is.
    public static func escapingSpoilersAndRuby(_ markdown: String) -> String {
        var text = markdown
        for round in 0...minimalEscapeRounds {
            let formed = ExtensionSites.offsets(in: text, reading: .markup)
            if formed.isEmpty { return text }
            let readAsText = ExtensionSites.offsets(in: text, reading: .text)
            let textual = Set(readAsText)
            let minimal = formed.filter(textual.contains)
            // The last round escapes every one read as text: more than needed, but it shows the
            // same and nothing can form after it, which bounds the rounds.
            let escapes = round < minimalEscapeRounds && !minimal.isEmpty ? minimal : readAsText
            text = insertingBackslashes(into: text, before: escapes)
        }
        return text
    }

    /// `text` with a backslash before each scalar at `offsets` (ascending).
    private static func insertingBackslashes(into text: String, before offsets: [Int]) -> String {
        var result = String.UnicodeScalarView()
        var next = 0
        for (offset, c) in text.unicodeScalars.enumerated() {
            if next < offsets.count, offsets[next] == offset {
                result.append("\\")
                next += 1
            }
            result.append(c)
        }
        return String(result)
    }
}
