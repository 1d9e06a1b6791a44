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
        var character: UInt8
        var length: Int
        var indent: Int
    }

    /// One line's UTF-8 bytes (or part of one), indexed from 0. Every marker the blocks use is
    /// ASCII, so the parser reads bytes: a byte offset before content is its scalar offset too.
    typealias Bytes = UnsafeBufferPointer<UInt8>

    private var blocks: [SourceBlock] = []
    /// Whether the last block still takes lines (an open paragraph or list item).
    private var open = false
    private var fence: Fence?
    private var listCount = 0
    private var lastListMarker: UInt8?
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
        var normalized = text.utf8.contains(UInt8(ascii: "\r")) && text.contains("\r") ? text.replacingCRLF() : text
        normalized.withUTF8 { bytes in
            // With no CR left every LF is a "\n" character of its own: splitting bytes is the same.
            var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            // The final newline ends the last line; it starts none (an unclosed fence keeps no blank line).
            if lines.count > 1, lines.last?.isEmpty == true { lines.removeLast() }
            for line in lines {
                parser.add(Bytes(rebasing: line))
                parser.lineNumber += 1
            }
        }
        return parser.blocks
    }

    private mutating func add(_ line: Bytes) {
        var i = 0
        var depth = 0
        // Inside an open fence only the fence's own quote markers count: a `>` after them is code.
        let markers = fence != nil ? blocks.last?.quoteDepth ?? 0 : Int.max
        while depth < markers {
            var j = i
            while j < line.count, j - i < 3, line[j] == .space { j += 1 }
            guard j < line.count, line[j] == UInt8(ascii: ">") else { break }
            depth += 1
            i = j + 1
            if i < line.count, line[i] == .space || line[i] == .tab { i += 1 }
        }
        let rest = Bytes(rebasing: line[i...])
        if let f = fence, let current = blocks.last {
            if depth == current.quoteDepth {
                if isClosingFence(rest, f) { fence = nil; return }
                var k = 0
                while k < rest.count, k < f.indent, rest[k] == .space { k += 1 }
                blocks[blocks.count - 1].lines.append(sourceLine(rest[k...], column: i + k))
                return
            }
            fence = nil
        }
        let indent = rest.prefix(while: { $0 == .space }).count
        let content = Bytes(rebasing: rest[min(indent, rest.count)...])
        let contentColumn = i + min(indent, rest.count)
        let itemIndent = emptyItemIndent
        emptyItemIndent = nil
        if content.allSatisfy({ $0 == .space || $0 == .tab }) {
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
            let raw = String(decoding: content[f.1...], as: UTF8.self).trimmingSpaces()
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
            let text = Self.trimmingSpaces(content, from: min(start, content.count))
            self.start(SourceBlock(role: .listItem(ordered: ordered, number: number ?? 0, list: listCount),
                                   quoteDepth: depth, lines: [sourceLine(content[text], column: contentColumn + text.lowerBound)]))
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

    /// A block's part of the current line, which starts at `column` in the source (in scalars:
    /// only ASCII markers come before it on the line).
    private func sourceLine(_ bytes: Slice<Bytes>, column: Int) -> SourceLine {
        SourceLine(text: String(decoding: bytes, as: UTF8.self), line: lineNumber, column: column)
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
    private func atxHeading(_ s: Bytes) -> (Int, Range<Int>)? {
        let hash = UInt8(ascii: "#")
        let level = s.prefix(while: { $0 == hash }).count
        guard (1...6).contains(level), level == s.count || s[level] == .space || s[level] == .tab else { return nil }
        var start = level
        while start < s.count, s[start] == .space || s[start] == .tab { start += 1 }
        var end = s.count
        while end > start, s[end - 1] == .space || s[end - 1] == .tab { end -= 1 }
        var closing = end
        while closing > start, s[closing - 1] == hash { closing -= 1 }
        if closing < end, closing == start || s[closing - 1] == .space || s[closing - 1] == .tab {
            end = closing
            while end > start, s[end - 1] == .space || s[end - 1] == .tab { end -= 1 }
        }
        return (level, start..<end)
    }

    private func openingFence(_ s: Bytes, indent: Int) -> (Fence, Int)? {
        guard let c = s.first, c == UInt8(ascii: "`") || c == UInt8(ascii: "~") else { return nil }
        let length = s.prefix(while: { $0 == c }).count
        guard length >= 3 else { return nil }
        if c == UInt8(ascii: "`"), s[length...].contains(c) { return nil }
        return (Fence(character: c, length: length, indent: indent), length)
    }

    private func isClosingFence(_ s: Bytes, _ f: Fence) -> Bool {
        let indent = s.prefix(while: { $0 == .space }).count
        guard indent < 4 else { return false }
        let run = s[indent...].prefix(while: { $0 == f.character }).count
        return run >= f.length && s[(indent + run)...].allSatisfy { $0 == .space || $0 == .tab }
    }

    /// `-`, `*`, `+`, `1.` or `1)` followed by a space (or the end): marker kind, number, and
    /// where the text starts (past the end when there is none).
    private func listMarker(_ s: Bytes) -> (UInt8, Int?, Int)? {
        guard let c = s.first else { return nil }
        var end: Int
        var number: Int?
        var marker = c
        if c == UInt8(ascii: "-") || c == UInt8(ascii: "*") || c == UInt8(ascii: "+") {
            end = 1
        } else {
            let digits = s.prefix(while: { (0x30...0x39).contains($0) }).count
            guard (1...9).contains(digits), digits < s.count, s[digits] == UInt8(ascii: ".") || s[digits] == UInt8(ascii: ")") else { return nil }
            number = s[0..<digits].reduce(0) { $0 * 10 + Int($1 - 0x30) }
            marker = s[digits]
            end = digits + 1
        }
        guard end == s.count || s[end] == .space || s[end] == .tab else { return nil }
        return (marker, number, end + 1)
    }

    /// The part of `s` from `start` without the spaces and tabs at either end (empty, at the
    /// end, when there is nothing else).
    private static func trimmingSpaces(_ s: Bytes, from start: Int) -> Range<Int> {
        var first = start
        while first < s.count, s[first] == .space || s[first] == .tab { first += 1 }
        var last = s.count
        while last > first, s[last - 1] == .space || s[last - 1] == .tab { last -= 1 }
        return first == last ? s.count..<s.count : first..<last
    }
}

private extension UInt8 {
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
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
