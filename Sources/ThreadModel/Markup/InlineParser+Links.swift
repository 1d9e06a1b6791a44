/// An unmatched `[` waiting for its `]`.
struct Bracket {
    var node: Int
    /// The top of the delimiter stack when the bracket was pushed.
    var delimiterBottom: Int
    /// Where the link text starts in the source, for reference labels.
    var textStart: Int
    /// Whether another `[` was pushed after this one (then it cannot be a shortcut reference).
    var bracketAfter = false
}

extension InlineParser {
    mutating func scanOpenBracket() {
        flushText()
        let node = append(.text("["))
        if !brackets.isEmpty { brackets[brackets.count - 1].bracketAfter = true }
        brackets.append(Bracket(node: node, delimiterBottom: lastDelimiter, textStart: position + 1))
        position += 1
    }

    /// `]` closes the nearest `[` into a link when `(destination "title")` or a defined
    /// reference label follows; anything else stays text.
    mutating func scanCloseBracket() {
        let textEnd = position
        position += 1
        guard let bracket = brackets.last else { return pendingText.append("]") }
        guard brackets.count > bracketsInactiveBelow,
              let (destination, title, end) = inlineLinkTail(from: position)
                ?? referenceLink(bracket, textEnd: textEnd) else {
            brackets.removeLast()
            bracketsInactiveBelow = min(bracketsInactiveBelow, brackets.count)
            return pendingText.append("]")
        }
        position = end
        let span = InlineSpan.link(destination: destination, title: title)
        nodes[bracket.node].kind = .text("")
        nodes[bracket.node].opensAfter.append(span)
        let closer = append(.text(""))
        nodes[closer].closesBefore.append(span)
        processEmphasis(above: bracket.delimiterBottom)
        removeDelimiters(above: bracket.delimiterBottom)
        // No links inside links: earlier autolinks and mentions in the text become text again.
        while let atom = atoms.last, atom > bracket.node {
            atoms.removeLast()
            switch nodes[atom].kind {
            case .mention(let handle, _): nodes[atom].kind = .text("@" + handle)
            case .autolink(_, let text): nodes[atom].kind = .text(text)
            case .ruby(let base, let reading): nodes[atom].kind = .ruby(base: Self.flattenedForLink(base), reading: reading)
            default: break
            }
        }
        brackets.removeLast()
        bracketsInactiveBelow = brackets.count
    }

    /// A full (`[text][label]`), collapsed (`[text][]`) or shortcut (`[text]`) reference to a
    /// definition, as cmark resolves them; the end is just past the last `]`.
    func referenceLink(_ bracket: Bracket, textEnd: Int) -> (String, String?, Int)? {
        guard !references.isEmpty else { return nil }
        var label: Range<Int>?
        var end = position
        if scalar(at: position) == "[", let labelEnd = linkLabelEnd(from: position) {
            end = labelEnd + 1
            if labelEnd > position + 1 { label = (position + 1)..<labelEnd }
        }
        if label == nil {
            guard !bracket.bracketAfter, textEnd - bracket.textStart <= 999 else { return nil }
            label = bracket.textStart..<textEnd
        }
        guard let label, let found = references[LinkReferences.normalize(scalars[label])] else { return nil }
        return (found.destination, found.title, end)
    }

    /// The index of the `]` closing a link label that opens at `start`, or nil.
    func linkLabelEnd(from start: Int) -> Int? {
        var i = start + 1
        var sawText = false
        while let c = scalar(at: i), i - start <= 1000 {
            if c == "]" { return sawText ? i : (i == start + 1 ? i : nil) }
            if c == "[" { return nil }
            if c == "\\", scalar(at: i + 1) != nil { i += 2; sawText = true; continue }
            if !c.isMarkdownWhitespace { sawText = true }
            i += 1
        }
        return nil
    }

    /// Parses `(destination "title")` starting at `start`; the end is just past `)`.
    func inlineLinkTail(from start: Int) -> (String, String?, Int)? {
        guard scalar(at: start) == "(" else { return nil }
        var i = skipSpaces(from: start + 1)
        guard let (destination, afterDestination) = linkDestination(from: i, allowEmpty: true) else { return nil }
        i = skipSpaces(from: afterDestination)
        var title: String?
        if i > afterDestination, let (parsed, afterTitle) = linkTitle(from: i) {
            title = parsed
            i = skipSpaces(from: afterTitle)
        }
        guard scalar(at: i) == ")" else { return nil }
        return (destination, title, i + 1)
    }

    /// A link destination at `start` (`<…>` or a run without spaces and with balanced
    /// parentheses) and the index after it.
    func linkDestination(from start: Int, allowEmpty: Bool) -> (String, Int)? {
        var i = start
        var destination = ""
        if scalar(at: i) == "<" {
            i += 1
            var raw = String.UnicodeScalarView()
            while let c = scalar(at: i), c != ">" {
                if c == "\n" || c == "<" { return nil }
                if c == "\\", let n = scalar(at: i + 1), n.isASCIIPunctuation { raw.append(n); i += 2; continue }
                // References count here as in any destination (`<&ouml;>` is `ö`).
                if c == "&", let (text, length) = CharacterReference.decode(scalars, at: i) {
                    raw.append(contentsOf: text.unicodeScalars)
                    i += length
                    continue
                }
                raw.append(c)
                i += 1
            }
            guard scalar(at: i) == ">" else { return nil }
            i += 1
            destination = String(raw)
        } else if !allowEmpty || scalar(at: i) != ")" {
            let startOfDestination = i
            var depth = 0
            while let c = scalar(at: i) {
                if c == "\\", let n = scalar(at: i + 1), n.isASCIIPunctuation { i += 2; continue }
                if c.value <= 0x20 || c.value == 0x7F { break }
                if c == "(" {
                    depth += 1
                    // The spec allows a limit on nested parentheses; it keeps the scan bounded.
                    if depth > 32 { return nil }
                }
                if c == ")" {
                    if depth == 0 { break }
                    depth -= 1
                }
                i += 1
            }
            guard i > startOfDestination, depth == 0 else { return nil }
            destination = unescape(startOfDestination..<i)
        }
        return (destination, i)
    }

    /// A link title at `start` (`"…"`, `'…'` or `(…)`, no blank line inside) and the index after it.
    func linkTitle(from start: Int) -> (String, Int)? {
        guard let open = scalar(at: start), open == "\"" || open == "'" || open == "(" else { return nil }
        let close: Unicode.Scalar = open == "(" ? ")" : open
        var j = start + 1
        while let c = scalar(at: j), c != close {
            if c == "\\", scalar(at: j + 1) != nil { j += 2; continue }
            if open == "(" && c == "(" { return nil }
            if c == "\n", scalar(at: skipSpaces(from: j + 1, newlines: false)) == "\n" { return nil }
            j += 1
        }
        guard scalar(at: j) == close else { return nil }
        return (unescape((start + 1)..<j), j + 1)
    }

    /// Spaces, tabs and at most one line ending.
    func skipSpaces(from start: Int, newlines: Bool = true) -> Int {
        var i = start
        var sawNewline = false
        while let c = scalar(at: i) {
            if c == " " || c == "\t" { i += 1; continue }
            if c == "\n", newlines, !sawNewline { sawNewline = true; i += 1; continue }
            break
        }
        return i
    }

    /// Backslash escapes and character references resolved, as in link destinations and titles.
    func unescape(_ range: Range<Int>) -> String {
        var out = String.UnicodeScalarView()
        var i = range.lowerBound
        while i < range.upperBound {
            let c = scalars[i]
            if c == "\\", i + 1 < range.upperBound, scalars[i + 1].isASCIIPunctuation {
                out.append(scalars[i + 1])
                i += 2
            } else if c == "&", let (text, length) = CharacterReference.decode(scalars, at: i), i + length <= range.upperBound {
                out.append(contentsOf: text.unicodeScalars)
                i += length
            } else {
                out.append(c)
                i += 1
            }
        }
        return String(out)
    }
}
