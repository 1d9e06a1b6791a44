extension InlineParser {
    /// `<scheme:...>` and `<user@example.com>` (CommonMark autolinks).
    mutating func scanAngleAutolink() -> Bool {
        var i = position + 1
        // Scheme: a letter, then 1...31 letters, digits, `+`, `.` or `-`, then `:`.
        var schemeLength = 0
        while let c = scalar(at: i), schemeLength <= 32,
              c.isASCIIAlphanumeric && (schemeLength > 0 || !(0x30...0x39).contains(c.value))
                || (schemeLength > 0 && (c == "+" || c == "." || c == "-")) {
            schemeLength += 1
            i += 1
        }
        if (2...32).contains(schemeLength), scalar(at: i) == ":" {
            while let c = scalar(at: i), c != ">" {
                if c.value <= 0x20 || c == "<" { return false }
                i += 1
            }
            guard scalar(at: i) == ">" else { return false }
            let text = String(String.UnicodeScalarView(scalars[(position + 1)..<i]))
            atoms.append(append(.autolink(destination: text, text: text)))
            position = i + 1
            return true
        }
        guard let end = emailEnd(from: position + 1), scalar(at: end) == ">" else { return false }
        let text = String(String.UnicodeScalarView(scalars[(position + 1)..<end]))
        atoms.append(append(.autolink(destination: "mailto:" + text, text: text)))
        position = end + 1
        return true
    }

    /// The end of `local@domain.labels` starting at `start` (HTML5's valid e-mail), or nil.
    private func emailEnd(from start: Int) -> Int? {
        var i = start
        while let c = scalar(at: i), c.isASCIIAlphanumeric || ".!#$%&'*+/=?^_`{|}~-".unicodeScalars.contains(c) { i += 1 }
        guard i > start, scalar(at: i) == "@" else { return nil }
        i += 1
        var labelLength = 0
        while true {
            guard let c = scalar(at: i) else { break }
            if c.isASCIIAlphanumeric || (c == "-" && labelLength > 0) {
                labelLength += 1
                if labelLength > 63 { return nil }
                i += 1
            } else if c == ".", labelLength > 0, scalars[i - 1] != "-" {
                labelLength = 0
                i += 1
            } else {
                break
            }
        }
        guard labelLength > 0, scalars[i - 1] != "-" else { return nil }
        return i
    }

    /// GFM extended autolinks: `www.`, `http://`, `https://`, `ftp://` and bare e-mail addresses, at the
    /// start of text or after whitespace or `*`, `_`, `~`, `(`.
    mutating func scanExtendedAutolink() -> Bool {
        let c = scalars[position]
        guard c.isASCIIAlphanumeric else { return false }
        if let previous = scalar(at: position - 1),
           !(previous.isMarkdownWhitespace || previous == "*" || previous == "_" || previous == "~" || previous == "(") {
            return false
        }
        if c == "w" || c == "W" || c == "h" || c == "H" || c == "f" || c == "F", let (end, prefix) = webLinkEnd() {
            let text = String(String.UnicodeScalarView(scalars[position..<end]))
            atoms.append(append(.autolink(destination: prefix + text, text: text)))
            position = end
            return true
        }
        if let end = bareEmailEnd() {
            let text = String(String.UnicodeScalarView(scalars[position..<end]))
            atoms.append(append(.autolink(destination: "mailto:" + text, text: text)))
            position = end
            return true
        }
        return false
    }

    private func hasPrefix(_ prefix: String, at start: Int) -> Bool {
        var i = start
        for p in prefix.unicodeScalars {
            guard let c = scalar(at: i) else { return false }
            // ASCII lowercases by arithmetic: the same answer as the mapping, without a String.
            if c.isASCII {
                let lower = (0x41...0x5A).contains(c.value) ? c.value + 0x20 : c.value
                guard lower == p.value else { return false }
            } else if c.properties.lowercaseMapping != String(p) {
                return false
            }
            i += 1
        }
        return true
    }

    /// The end of a `www.`/`http(s)://` link at `position` and the scheme to prepend.
    private func webLinkEnd() -> (Int, String)? {
        var domainStart = position
        var prefix = ""
        if hasPrefix("www.", at: position) {
            prefix = "http://"
        } else if hasPrefix("http://", at: position) {
            domainStart += 7
        } else if hasPrefix("https://", at: position) {
            domainStart += 8
        } else if hasPrefix("ftp://", at: position) {
            domainStart += 6
        } else {
            return nil
        }
        // Domain: labels of alphanumerics (any script, as cmark-gfm takes them), `-` and `_`;
        // no `_` in the last two labels.
        var i = domainStart
        var periods = 0
        var underscoreInLabel = [false]
        while let c = scalar(at: i), c.isASCIIAlphanumeric || c == "-" || c == "_" || c == "." || c.isNonASCIIHostCharacter {
            if c == "." { periods += 1; underscoreInLabel.append(false) }
            if c == "_" { underscoreInLabel[underscoreInLabel.count - 1] = true }
            i += 1
        }
        guard i > domainStart, periods > 0 || prefix.isEmpty,
              !underscoreInLabel.suffix(2).contains(true) else { return nil }
        while let c = scalar(at: i), !c.isMarkdownWhitespace, c != "<" { i += 1 }
        return (trimTrailingPunctuation(start: position, end: i), prefix)
    }

    /// GFM's trailing-punctuation rules: `?!.,:*_~'"` go, unmatched `)` go, a final `&entity;` goes.
    private func trimTrailingPunctuation(start: Int, end: Int) -> Int {
        var opens = 0
        var closes = 0
        for c in scalars[start..<end] {
            if c == "(" { opens += 1 } else if c == ")" { closes += 1 }
        }
        var end = end
        while end > start {
            let c = scalars[end - 1]
            if "?!.,:*_~'\"".unicodeScalars.contains(c) {
                end -= 1
            } else if c == ")", closes > opens {
                closes -= 1
                end -= 1
            } else if c == ";" {
                var j = end - 2
                while j > start, scalars[j].isASCIIAlphanumeric { j -= 1 }
                guard j < end - 2, scalars[j] == "&" else { break }
                end = j
            } else {
                break
            }
        }
        return end
    }

    /// A bare `local@domain.tld` (GFM extended e-mail autolink) starting at `position`.
    private func bareEmailEnd() -> Int? {
        var i = position
        while let c = scalar(at: i), c.isASCIIAlphanumeric || c == "." || c == "+" || c == "-" || c == "_" { i += 1 }
        guard scalar(at: i) == "@" else { return nil }
        i += 1
        let domainStart = i
        var periods = 0
        while let c = scalar(at: i), c.isASCIIAlphanumeric || c == "-" || c == "_" || c == "." {
            if c == "." { periods += 1 }
            i += 1
        }
        if i > domainStart, scalars[i - 1] == "." { i -= 1; periods -= 1 }
        guard i > domainStart, periods > 0, let last = scalar(at: i - 1), last != "-", last != "_" else { return nil }
        return i
    }
}

private extension Unicode.Scalar {
    /// A letter, mark or digit beyond ASCII, as in an internationalised host name (`пример.com`).
    var isNonASCIIHostCharacter: Bool {
        !isASCII && !isMarkdownWhitespace && !isMarkdownPunctuation
            && properties.generalCategory != .control && properties.generalCategory != .format
    }
}
