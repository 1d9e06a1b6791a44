import Foundation

extension ComposerDocument {
    /// The comment body to send: typed text as typed, formatting as markers, mentions as `@handle`.
    /// It adds no space around a mention: the draft holds the ones that keep tokens apart
    /// (`ComposerDocument+MentionSpacing`), so what is sent is what the composer showed.
    public var markdown: String { ComposerMarkdownWriter.write(text) }
}

/// Writes a draft's attributed text as comment markup that `CommentMarkup.parse` reads back.
///
/// Typed characters are not escaped (typing `**x**` means it). Each line is written on its own,
/// since a code span cannot hold a newline and a blank line ends every span. Within a line the
/// whitespace at the edges of a formatted stretch is moved outside its markers, because a
/// CommonMark delimiter next to whitespace cannot open or close; the rest nests the markers with
/// a stack, opening the longest-lasting format outermost. Known limit: a marker between a letter
/// and punctuation (`a**(b)**`) is not flanking either and stays literal, as in any CommonMark.
/// Typed ruby (`{漢字|かんじ}`) is kept whole: formats either cover a whole annotation or stay
/// inside its base, and a typed `\{` keeps its backslash next to the brace, so a brace the draft
/// shows as text is never read back as ruby.
enum ComposerMarkdownWriter {
    private static let bold: UInt8 = 1, italic: UInt8 = 2, strike: UInt8 = 4, spoiler: UInt8 = 8, code: UInt8 = 16
    /// The order formats open in when they last equally long.
    private static let nesting: [UInt8] = [spoiler, strike, bold, italic]

    private struct Cell {
        var character: Character
        var mask: UInt8
        var mention: String?
    }

    private struct Segment {
        var text: String
        var mask: UInt8
    }

    static func write(_ text: AttributedString) -> String {
        var cells: [Cell] = []
        for run in text.runs {
            let formats = ComposerFormatting.formats(in: run.attributes)
            let mention = run[CommentAttributes.MentionAttribute.self]
            var mask: UInt8 = 0
            if formats.contains(.bold) { mask |= bold }
            if formats.contains(.italic) { mask |= italic }
            if formats.contains(.strikethrough) { mask |= strike }
            if formats.contains(.spoiler) { mask |= spoiler }
            if formats.contains(.code), mention == nil { mask |= code }
            for c in text[run.range].characters { cells.append(Cell(character: c, mask: mask, mention: mention)) }
        }
        ComposerWholeReads.add(cells.count)
        cells = keepingRubyWhole(cells)
        var out = ""
        var lineStart = 0
        for i in 0...cells.count where i == cells.count || cells[i].character == "\n" {
            writeLine(&cells[lineStart..<i], into: &out)
            if i < cells.count { out.append("\n") }
            lineStart = i + 1
        }
        return out
    }

    /// Gives every cell of ruby markup (`{`, `|reading}`) the formats its whole base has, so no
    /// marker lands inside the markup (in a reading it would show; before `{` or `|` it would
    /// break the annotation), and a `\` before `{` the brace's formats, so no marker parts the
    /// escape from the brace. Annotations are found as `InlineParser.scanRuby` finds them; one
    /// with code in it is none (code wins).
    private static func keepingRubyWhole(_ cells: [Cell]) -> [Cell] {
        guard cells.contains(where: { $0.character == "{" }) else { return cells }
        var out = cells
        var i = 0
        while i < out.count {
            if isEscape(out, at: i) {
                if out[i + 1].character == "{" { out[i].mask = out[i + 1].mask }
                i += 2
                continue
            }
            guard out[i].character == "{", let (bar, close) = rubyBounds(out, from: i) else {
                i += 1
                continue
            }
            let shared = out[(i + 1)..<bar].reduce(UInt8.max) { $0 & $1.mask }
            out[i].mask = shared
            for k in bar...close { out[k].mask = shared }
            i = close + 1
        }
        return out
    }

    /// Whether the cell at `i` is a `\` that makes the next character literal.
    private static func isEscape(_ cells: [Cell], at i: Int) -> Bool {
        guard cells[i].character == "\\", i + 1 < cells.count else { return false }
        let next = cells[i + 1].character.unicodeScalars
        return next.count == 1 && next.first!.isASCIIPunctuation
    }

    /// The `|` and `}` of an annotation whose `{` is at `start`, or nil.
    private static func rubyBounds(_ cells: [Cell], from start: Int) -> (bar: Int, close: Int)? {
        func boundary(from first: Int, at target: Character) -> Int? {
            var i = first
            while i < cells.count {
                let c = cells[i].character
                if cells[i].mask & code != 0 { return nil }
                if c == target { return i }
                if isEscape(cells, at: i) { i += 2; continue }
                if c == "\n" || c == "{" || c == "}" || c == "|" || c == "`" { return nil }
                i += 1
            }
            return nil
        }
        func isBlank(_ range: Range<Int>) -> Bool { cells[range].allSatisfy { $0.character.isWhitespace } }
        guard let bar = boundary(from: start + 1, at: "|"), !isBlank((start + 1)..<bar),
              let close = boundary(from: bar + 1, at: "}"), !isBlank((bar + 1)..<close) else { return nil }
        return (bar, close)
    }

    private static func writeLine(_ line: inout ArraySlice<Cell>, into out: inout String) {
        guard !line.isEmpty else { return }
        trimWhitespaceEdges(&line)
        var segments: [Segment] = []
        var previousMention: String?
        for cell in line {
            if let last = segments.last, last.mask == cell.mask, previousMention == cell.mention {
                segments[segments.count - 1].text.append(cell.character)
            } else {
                segments.append(Segment(text: String(cell.character), mask: cell.mask))
            }
            previousMention = cell.mention
        }
        var stack: [(format: UInt8, marker: String)] = []
        // Whitespace ending the last segment: written after the markers closing there, so that
        // the closers stay next to text.
        var pending = ""
        for (k, segment) in segments.enumerated() {
            let needed = segment.mask & ~code
            var keep = 0
            while keep < stack.count, needed & stack[keep].format != 0 { keep += 1 }
            var closedWithStar = false
            while stack.count > keep {
                let marker = stack.removeLast().marker
                out += marker
                closedWithStar = marker.hasPrefix("*")
            }
            var body = Substring(segment.text)
            let isCode = segment.mask & code != 0
            // Likewise leading whitespace goes before the openers (code spans need no flanking).
            let lead = isCode ? "" : body.prefix(while: \.isWhitespace)
            body = body.dropFirst(lead.count)
            if !pending.isEmpty || !lead.isEmpty { closedWithStar = false }
            out += pending
            out += lead
            pending = ""
            let open = stack.reduce(0) { $0 | $1.format }
            let missing = nesting.filter { needed & $0 != 0 && open & $0 == 0 }
            let ends = Dictionary(uniqueKeysWithValues: missing.map { ($0, extentEnd(of: $0, from: k, in: segments)) })
            for format in missing.sorted(by: { ends[$0]! > ends[$1]! }) {
                var marker = marker(for: format)
                // `**` closed right before would fuse with a new `*` into one run; `_` keeps them
                // apart where it can close (before whitespace, punctuation or the line's end).
                if closedWithStar, marker.hasPrefix("*"), underscoreCanClose(after: ends[format]!, in: segments) {
                    marker = String(repeating: "_", count: marker.count)
                }
                closedWithStar = false
                out += marker
                stack.append((format, marker))
            }
            if isCode {
                out += codeSpan(String(body))
            } else {
                let trail = body.reversed().prefix(while: \.isWhitespace).count
                out += body.dropLast(trail)
                pending = String(body.suffix(trail))
            }
        }
        for entry in stack.reversed() { out += entry.marker }
        out += pending
    }

    private static func marker(for format: UInt8) -> String {
        switch format {
        case bold: return "**"
        case italic: return "*"
        case strike: return "~~"
        default: return "||"
        }
    }

    /// The last segment of the stretch of `format` that segment `k` starts.
    private static func extentEnd(of format: UInt8, from k: Int, in segments: [Segment]) -> Int {
        var j = k
        while j + 1 < segments.count, segments[j + 1].mask & format != 0 { j += 1 }
        return j
    }

    private static func underscoreCanClose(after j: Int, in segments: [Segment]) -> Bool {
        guard j + 1 < segments.count, let next = segments[j + 1].text.unicodeScalars.first else { return true }
        return next.isMarkdownWhitespace || next.isMarkdownPunctuation
    }

    /// Clears each format from the whitespace at the edges of its stretches.
    private static func trimWhitespaceEdges(_ line: inout ArraySlice<Cell>) {
        for format in [bold, italic, strike, spoiler, code] {
            var i = line.startIndex
            while i < line.endIndex {
                guard line[i].mask & format != 0 else { i += 1; continue }
                var end = i
                while end < line.endIndex, line[end].mask & format != 0 { end += 1 }
                var lo = i, hi = end
                while lo < hi, line[lo].character.isWhitespace { line[lo].mask &= ~format; lo += 1 }
                while hi > lo, line[hi - 1].character.isWhitespace { line[hi - 1].mask &= ~format; hi -= 1 }
                i = end
            }
        }
    }

    /// A code span for `content`: a fence longer than any backtick run inside, padded with a
    /// space (which the parser strips again) where the content's edges would confuse it.
    static func codeSpan(_ content: String) -> String {
        var longest = 0, run = 0
        for c in content.unicodeScalars {
            run = c == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let bothSpaces = content.count >= 2 && content.first == " " && content.last == " " && content.contains { $0 != " " }
        let pad = content.first == "`" || content.last == "`" || bothSpaces ? " " : ""
        return fence + pad + content + pad + fence
    }
}
