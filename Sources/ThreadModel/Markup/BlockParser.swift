/// A block found by `BlockParser`: its role and the source text of its content.
struct SourceBlock {
    var role: MarkupBlock.Role
    var quoteDepth: Int
    /// Inline source (paragraphs, list items, headings) or verbatim text (code blocks).
    var lines: [SourceLine]
    /// See `MarkupBlock.continuedQuotes`.
    var continuedQuotes = 0

    /// The text the inline parser reads: the lines joined, without trailing spaces.
    var inlineText: String {
        var text = ""
        for (index, line) in lines.enumerated() {
            if index > 0 { text += "\n" }
            text += line.text
        }
        while let last = text.unicodeScalars.last, last == " " || last == "\t" { text.unicodeScalars.removeLast() }
        return text
    }
}

/// The part of a source line that a block keeps (markers and indent left out), and where it
/// starts, so that a position in a block's text leads back to the comment body.
struct SourceLine {
    var text: String
    /// The source line it is on, from 0 (CR LF, CR and LF each end a line).
    var line: Int
    /// Where on that line it starts, in Unicode scalars.
    var column: Int
}

/// Splits a comment body into the blocks a comment needs: paragraphs, fenced code blocks,
/// block quotes, ATX headings and simple (one-paragraph, unnested) list items. Anything else
/// is paragraph text.
struct BlockParser {
    private struct Fence {
        var character: Unicode.Scalar
        var length: Int
        var indent: Int
    }

    private var blocks: [SourceBlock] = []
    /// Whether the last block still takes lines (an open paragraph or list item).
    private var open = false
    private var fence: Fence?
    private var listCount = 0
    private var lastListMarker: Unicode.Scalar?
    /// Quote levels open without a break since the last block started (a blank line with
    /// fewer `>` ends the deeper ones).
    private var openQuotes = 0
    /// The indent a line needs to fill the list item that began with a blank line just before.
    private var emptyItemIndent: Int?
    /// The number of the line being added, from 0.
    private var lineNumber = 0

    /// The blocks of `text`, in order.
    static func parse(_ text: String) -> [SourceBlock] {
        var parser = BlockParser()
        // CR LF and lone CR end lines as in CommonMark; the rest of the text keeps its CRs out.
        // (The byte test first: Foundation's `contains` is a slow search on Linux.)
        let normalized = text.utf8.contains(UInt8(ascii: "\r")) && text.contains("\r") ? text.replacingCRLF() : text
        // With no CR left every LF is a "\n" character of its own: splitting bytes is the same.
        var lines = normalized.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        // The final newline ends the last line; it starts none (an unclosed fence keeps no blank line).
        if lines.count > 1, lines.last?.isEmpty == true { lines.removeLast() }
        for line in lines {
            parser.add(Array(normalized[line.startIndex..<line.endIndex].unicodeScalars))
            parser.lineNumber += 1
        }
        return parser.blocks
    }

    private mutating func add(_ line: [Unicode.Scalar]) {
        var i = 0
        var depth = 0
        // Inside an open fence only the fence's own quote markers count: a `>` after them is code.
        let markers = fence != nil ? blocks.last?.quoteDepth ?? 0 : Int.max
        while depth < markers {
            var j = i
            while j < line.count, j - i < 3, line[j] == " " { j += 1 }
            guard j < line.count, line[j] == ">" else { break }
            depth += 1
            i = j + 1
            if i < line.count, line[i] == " " || line[i] == "\t" { i += 1 }
        }
        let rest = Array(line[i...])
        if let f = fence, let current = blocks.last {
            if depth == current.quoteDepth {
                if isClosingFence(rest, f) { fence = nil; return }
                var k = 0
                while k < rest.count, k < f.indent, rest[k] == " " { k += 1 }
                blocks[blocks.count - 1].lines.append(sourceLine(rest[k...], column: i + k))
                return
            }
            fence = nil
        }
        let indent = rest.prefix(while: { $0 == " " }).count
        let content = Array(rest[min(indent, rest.count)...])
        let contentColumn = i + min(indent, rest.count)
        let itemIndent = emptyItemIndent
        emptyItemIndent = nil
        if content.allSatisfy({ $0 == " " || $0 == "\t" }) {
            open = false
            if depth == 0 { lastListMarker = nil }
            openQuotes = min(openQuotes, depth)
            // A `>` line with nothing in it opens a quote that stays empty unless text follows.
            if depth > openQuotes { start(SourceBlock(role: .paragraph, quoteDepth: depth, lines: [])) }
            return
        }
        if let itemIndent, open, indent >= itemIndent, depth == blocks.last?.quoteDepth {
            // The first line of an item that began blank.
            blocks[blocks.count - 1].lines = [sourceLine(content[...], column: contentColumn)]
            return
        }
        if itemIndent != nil { open = false }
        if indent < 4, let f = openingFence(content, indent: indent) {
            fence = f.0
            open = false
            lastListMarker = nil
            // Escapes and references count in an info string; it reaches the renderer as an
            // attribute value, so it is made visible-safe too.
            let raw = String(String.UnicodeScalarView(content[f.1...])).trimmingSpaces()
            let info = VisibleControls.sanitize(InlineParser(raw, handles: { _ in nil }).unescape(0..<raw.unicodeScalars.count))
            start(SourceBlock(role: .codeBlock(info: info), quoteDepth: depth, lines: []))
            return
        }
        if indent < 4, let (level, textRange) = atxHeading(content) {
            open = false
            lastListMarker = nil
            start(SourceBlock(role: .heading(level: level), quoteDepth: depth,
                              lines: [sourceLine(content[textRange], column: contentColumn + textRange.lowerBound)]))
            return
        }
        if indent < 4, let (marker, number, start) = listMarker(content),
           !(open && blocks.last?.role == .paragraph && blocks.last?.quoteDepth == depth
             && (start >= content.count || (number ?? 1) != 1)) {
            // As in CommonMark, only a non-empty item starting at 1 may interrupt a paragraph
            // (the next item of an open list always starts a new item).
            let ordered = number != nil
            let continues = lastListMarker == marker && blocks.last.map { $0.quoteDepth == depth } == true
            if !continues { listCount += 1 }
            lastListMarker = marker
            let text = content[min(start, content.count)...].trimmingSpaces()
            self.start(SourceBlock(role: .listItem(ordered: ordered, number: number ?? 0, list: listCount),
                                   quoteDepth: depth, lines: [sourceLine(text, column: contentColumn + text.startIndex)]))
            if text.isEmpty { emptyItemIndent = indent + start }
            open = true
            return
        }
        let text = sourceLine(content[...], column: contentColumn)
        // Lazy continuation: a paragraph goes on even when the line drops some `>` markers.
        if open, let last = blocks.last, depth <= last.quoteDepth {
            blocks[blocks.count - 1].lines.append(text)
            return
        }
        lastListMarker = nil
        start(SourceBlock(role: .paragraph, quoteDepth: depth, lines: [text]))
        open = true
    }

    /// A block's part of the current line, which starts at `column` in the source.
    private func sourceLine(_ scalars: ArraySlice<Unicode.Scalar>, column: Int) -> SourceLine {
        SourceLine(text: String(String.UnicodeScalarView(scalars)), line: lineNumber, column: column)
    }

    /// Appends a block, noting which of the open quotes it goes on in.
    private mutating func start(_ block: SourceBlock) {
        var block = block
        block.continuedQuotes = min(openQuotes, block.quoteDepth)
        blocks.append(block)
        openQuotes = block.quoteDepth
    }

    /// `#` to `######` then a space or the end: the level and where the text is, without a
    /// closing run of `#` (one that follows a space).
    private func atxHeading(_ s: [Unicode.Scalar]) -> (Int, Range<Int>)? {
        let level = s.prefix(while: { $0 == "#" }).count
        guard (1...6).contains(level), level == s.count || s[level] == " " || s[level] == "\t" else { return nil }
        var start = level
        while start < s.count, s[start] == " " || s[start] == "\t" { start += 1 }
        var end = s.count
        while end > start, s[end - 1] == " " || s[end - 1] == "\t" { end -= 1 }
        var closing = end
        while closing > start, s[closing - 1] == "#" { closing -= 1 }
        if closing < end, closing == start || s[closing - 1] == " " || s[closing - 1] == "\t" {
            end = closing
            while end > start, s[end - 1] == " " || s[end - 1] == "\t" { end -= 1 }
        }
        return (level, start..<end)
    }

    private func openingFence(_ s: [Unicode.Scalar], indent: Int) -> (Fence, Int)? {
        guard let c = s.first, c == "`" || c == "~" else { return nil }
        let length = s.prefix(while: { $0 == c }).count
        guard length >= 3 else { return nil }
        if c == "`", s[length...].contains("`") { return nil }
        return (Fence(character: c, length: length, indent: indent), length)
    }

    private func isClosingFence(_ s: [Unicode.Scalar], _ f: Fence) -> Bool {
        let indent = s.prefix(while: { $0 == " " }).count
        guard indent < 4 else { return false }
        let run = s[indent...].prefix(while: { $0 == f.character }).count
        return run >= f.length && s[(indent + run)...].allSatisfy { $0 == " " || $0 == "\t" }
    }

    /// `-`, `*`, `+`, `1.` or `1)` followed by a space (or the end): marker kind, number, and
    /// where the text starts (past the end when there is none).
    private func listMarker(_ s: [Unicode.Scalar]) -> (Unicode.Scalar, Int?, Int)? {
        guard let c = s.first else { return nil }
        var end: Int
        var number: Int?
        var marker = c
        if c == "-" || c == "*" || c == "+" {
            end = 1
        } else {
            let digits = s.prefix(while: { (0x30...0x39).contains($0.value) }).count
            guard (1...9).contains(digits), digits < s.count, s[digits] == "." || s[digits] == ")" else { return nil }
            number = Int(String(String.UnicodeScalarView(s[0..<digits])))
            marker = s[digits]
            end = digits + 1
        }
        guard end == s.count || s[end] == " " || s[end] == "\t" else { return nil }
        return (marker, number, end + 1)
    }
}

private extension ArraySlice<Unicode.Scalar> {
    /// Without the spaces and tabs at either end; the indices stay those of the whole array.
    func trimmingSpaces() -> ArraySlice<Unicode.Scalar> {
        guard let first = firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = lastIndex(where: { $0 != " " && $0 != "\t" }) else { return self[endIndex...] }
        return self[first...last]
    }
}

private extension String {
    func replacingCRLF() -> String {
        var out = String.UnicodeScalarView()
        var previousCR = false
        for c in unicodeScalars {
            if c == "\n", previousCR { previousCR = false; continue }
            previousCR = c == "\r"
            out.append(previousCR ? "\n" : c)
        }
        return String(out)
    }

    func trimmingSpaces() -> String {
        let s = unicodeScalars
        guard let first = s.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = s.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(s[first...last])
    }
}
