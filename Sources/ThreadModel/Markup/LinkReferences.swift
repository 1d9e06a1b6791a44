/// Link reference definitions (`[label]: /url "title"`) found at the start of paragraphs, and
/// the label normalisation references are looked up by.
struct LinkReferences {
    struct Definition {
        var destination: String
        var title: String?
    }

    /// Normalised label to definition; the first definition of a label wins.
    private(set) var definitions: [String: Definition] = [:]

    /// Case-folded, whitespace-collapsed label, as CommonMark matches them.
    static func normalize(_ label: ArraySlice<Unicode.Scalar>) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for c in label {
            if c.isMarkdownWhitespace {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                out.append(c)
            }
        }
        // Lower, upper, lower: a cheap case fold that also maps ẞ and ß to "ss".
        return String(out).lowercased().uppercased().lowercased()
    }

    /// Records the definitions at the start of a paragraph's lines; returns how many of the
    /// lines they take up (the rest is the paragraph's text).
    mutating func extract(from lines: [SourceLine]) -> Int {
        guard lines.first?.text.unicodeScalars.first == "[" else { return 0 }
        let parser = InlineParser(lines.map(\.text).joined(separator: "\n"), handles: { _ in nil })
        var start = 0
        while start < parser.scalars.count, let (label, definition, end) = Self.definition(in: parser, at: start) {
            if definitions[label] == nil { definitions[label] = definition }
            start = end
        }
        // A definition ends with its line, so the lines used are the line ends passed.
        guard start < parser.scalars.count else { return lines.count }
        return parser.scalars[..<start].reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
    }

    /// One definition at `start` (a line start): its label, content and the next line's start.
    private static func definition(in p: InlineParser, at start: Int) -> (String, Definition, Int)? {
        guard p.scalar(at: start) == "[", let labelEnd = p.linkLabelEnd(from: start),
              labelEnd > start + 1, p.scalar(at: labelEnd + 1) == ":" else { return nil }
        let destinationStart = p.skipSpaces(from: labelEnd + 2)
        guard let (destination, afterDestination) = p.linkDestination(from: destinationStart, allowEmpty: false)
                ?? emptyPointy(p, destinationStart) else { return nil }
        let label = normalize(p.scalars[(start + 1)..<labelEnd])
        guard !label.isEmpty else { return nil }
        let titleStart = p.skipSpaces(from: afterDestination)
        if titleStart > afterDestination, let (title, afterTitle) = p.linkTitle(from: titleStart),
           let end = lineEnd(p, afterTitle) {
            return (label, Definition(destination: destination, title: title), end)
        }
        guard let end = lineEnd(p, afterDestination) else { return nil }
        return (label, Definition(destination: destination, title: nil), end)
    }

    /// `<>` is an empty destination, which `linkDestination` refuses outside inline links.
    private static func emptyPointy(_ p: InlineParser, _ i: Int) -> (String, Int)? {
        p.scalar(at: i) == "<" && p.scalar(at: i + 1) == ">" ? ("", i + 2) : nil
    }

    /// The start of the next line when only spaces remain on this one.
    private static func lineEnd(_ p: InlineParser, _ i: Int) -> Int? {
        var j = i
        while let c = p.scalar(at: j), c == " " || c == "\t" { j += 1 }
        guard let c = p.scalar(at: j) else { return j }
        return c == "\n" ? j + 1 : nil
    }
}
