extension InlineParser {
    /// Raw HTML (tags, comments, processing instructions, declarations, CDATA) per CommonMark.
    /// Comments cannot render HTML, so it becomes one piece of text; recognising it still
    /// matters, because markup inside a tag (`<a href="*">`) must not pair with markup outside.
    mutating func scanRawHTML() -> Bool {
        guard let end = rawHTMLEnd(from: position) else { return false }
        append(.rawHTML(String(String.UnicodeScalarView(scalars[position..<end]))))
        position = end
        return true
    }

    private mutating func rawHTMLEnd(from start: Int) -> Int? {
        guard let first = scalar(at: start + 1) else { return nil }
        switch first {
        case "/":
            guard var i = tagNameEnd(from: start + 2) else { return nil }
            i = skipHTMLWhitespace(from: i)
            return scalar(at: i) == ">" ? i + 1 : nil
        case "?":
            return search("?>", from: start + 2)
        case "!":
            if hasPrefix("!--", at: start + 1) {
                if scalar(at: start + 4) == ">" { return start + 5 }
                if hasPrefix("->", at: start + 4) { return start + 6 }
                return search("-->", from: start + 4)
            }
            if hasPrefix("![CDATA[", at: start + 1) { return search("]]>", from: start + 9) }
            guard let letter = scalar(at: start + 2), letter.isASCIILetter else { return nil }
            return search(">", from: start + 3)
        default:
            return openTagEnd(from: start)
        }
    }

    private func openTagEnd(from start: Int) -> Int? {
        guard var i = tagNameEnd(from: start + 1) else { return nil }
        while true {
            let afterSpace = skipHTMLWhitespace(from: i)
            if scalar(at: afterSpace) == ">" { return afterSpace + 1 }
            if scalar(at: afterSpace) == "/" { return scalar(at: afterSpace + 1) == ">" ? afterSpace + 2 : nil }
            guard afterSpace > i, let c = scalar(at: afterSpace), c.isASCIILetter || c == "_" || c == ":" else { return nil }
            i = afterSpace + 1
            while let c = scalar(at: i), c.isASCIIAlphanumeric || "_.:-".unicodeScalars.contains(c) { i += 1 }
            // Optional value: `= unquoted`, `= 'single'` or `= "double"`.
            let beforeEquals = skipHTMLWhitespace(from: i)
            guard scalar(at: beforeEquals) == "=" else { continue }
            var v = skipHTMLWhitespace(from: beforeEquals + 1)
            guard let quote = scalar(at: v) else { return nil }
            if quote == "\"" || quote == "'" {
                v += 1
                while let c = scalar(at: v), c != quote { v += 1 }
                guard scalar(at: v) == quote else { return nil }
                i = v + 1
            } else {
                let valueStart = v
                while let c = scalar(at: v), !c.isMarkdownWhitespace, !"\"'=<>`".unicodeScalars.contains(c) { v += 1 }
                guard v > valueStart else { return nil }
                i = v
            }
        }
    }

    private func tagNameEnd(from start: Int) -> Int? {
        guard let c = scalar(at: start), c.isASCIILetter else { return nil }
        var i = start + 1
        while let c = scalar(at: i), c.isASCIIAlphanumeric || c == "-" { i += 1 }
        return i
    }

    private func skipHTMLWhitespace(from start: Int) -> Int {
        var i = start
        while let c = scalar(at: i), c == " " || c == "\t" || c == "\n" { i += 1 }
        return i
    }

    private func hasPrefix(_ prefix: String, at start: Int) -> Bool {
        var i = start
        for p in prefix.unicodeScalars {
            guard scalar(at: i) == p else { return false }
            i += 1
        }
        return true
    }

    /// The index after the next `terminator`. A search that reached the end is remembered, so
    /// many unclosed `<!--` cost one scan, not one each.
    private mutating func search(_ terminator: String, from start: Int) -> Int? {
        if rawHTMLTerminatorsMissing.contains(terminator) { return nil }
        let t = Array(terminator.unicodeScalars)
        var i = start
        while i + t.count <= scalars.count {
            if scalars[i] == t[0], hasPrefix(terminator, at: i) { return i + t.count }
            i += 1
        }
        rawHTMLTerminatorsMissing.insert(terminator)
        return nil
    }
}

extension Unicode.Scalar {
    var isASCIILetter: Bool { (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) }
}
