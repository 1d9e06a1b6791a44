/// Writes inline pieces as Markdown source and checks the result with our own parser.
///
/// CommonMark's flanking rules cannot express every span (`a<b>.b</b>` has no bold form), so each
/// block is parsed back and compared; when it differs, the spans that cannot always be written
/// are given up in turn (emphasis, then links, then spoilers and mentions) rather than let a stray
/// `*` or `||` show as text.
enum MatrixInlineMarkdown {
    private enum Level: CaseIterable {
        case full, withoutEmphasis, withoutLinks, textAndCode, text
    }

    private enum Span: Equatable {
        case link(String), ruby(MatrixRuby), spoiler, strikethrough, strong, emphasis
    }

    /// The Markdown for `pieces` (already normalized), lines separated by `\n`.
    static func markdown(_ pieces: [MatrixInlinePiece]) -> String {
        var last = ""
        for level in Level.allCases {
            let adapted = adapt(pieces, to: level)
            last = write(adapted)
            if parsesBack(last, as: adapted) { return last }
        }
        return last
    }

    /// Backslash-escapes every ASCII punctuation character: our parser takes `\` before any of
    /// them (including `@`, `|`, `~`) as the character itself, and nothing else in it can start.
    static func escape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for c in text.unicodeScalars {
            if c.isASCIIPunctuation { out.append("\\") }
            out.append(c)
        }
        return String(out)
    }

    // MARK: Levels

    private static func adapt(_ pieces: [MatrixInlinePiece], to level: Level) -> [MatrixInlinePiece] {
        func filtered(_ style: MatrixInlineStyle) -> MatrixInlineStyle {
            var s = style
            if level != .full { s.strong = false; s.emphasis = false; s.strikethrough = false }
            if level == .withoutLinks || level == .textAndCode || level == .text { s.link = nil }
            if level == .textAndCode || level == .text { s.spoiler = false; s.ruby = nil }
            return s
        }
        var out: [MatrixInlinePiece] = []
        for (k, piece) in pieces.enumerated() {
            switch piece {
            case .text(let t, let s): out.append(.text(t, filtered(s)))
            case .code(let t, let s): out.append(level == .text ? .text(t, filtered(s)) : .code(t, filtered(s)))
            case .mention(let h, let id, let f, let s):
                out.append(level == .textAndCode || level == .text ? .text(f, filtered(s)) : .mention(handle: h, userID: id, fallback: f, filtered(s)))
            case .lineBreak(let s): out.append(.lineBreak(filtered(s)))
            }
            // A reading given up stays as text after its base: `漢字(かんじ)`.
            if let ruby = piece.style.ruby, filtered(piece.style).ruby == nil,
               k + 1 == pieces.count || pieces[k + 1].style.ruby != ruby {
                out.append(.text("(" + ruby.reading + ")", filtered(piece.style)))
            }
        }
        return mentionsPlaced(merged(out))
    }

    /// Adjacent text with one style, and adjacent code with one style, become one piece (two code
    /// spans side by side would read as one longer backtick run).
    static func merged(_ pieces: [MatrixInlinePiece]) -> [MatrixInlinePiece] {
        var out: [MatrixInlinePiece] = []
        for piece in pieces {
            switch (out.last, piece) {
            case (.text(let a, let s1), .text(let b, let s2)) where s1 == s2:
                out[out.count - 1] = .text(a + b, s1)
            case (.code(let a, let s1), .code(let b, let s2)) where s1 == s2:
                out[out.count - 1] = .code(a + b, s1)
            case (_, .text(let t, _)) where t.isEmpty:
                continue
            default:
                out.append(piece)
            }
        }
        return out
    }

    /// A mention after or before a word character would not parse as one: it becomes its text.
    private static func mentionsPlaced(_ pieces: [MatrixInlinePiece]) -> [MatrixInlinePiece] {
        var out = pieces
        for (k, piece) in pieces.enumerated() {
            guard case .mention(let handle, _, let fallback, let style) = piece else { continue }
            // A span boundary writes a delimiter between the two, which is no word character.
            let before = k > 0 && pieces[k - 1].style == style ? lastWritten(out[k - 1]) : nil
            let after = k + 1 < pieces.count && pieces[k + 1].style == style ? firstWritten(pieces[k + 1]) : nil
            let fits = handle.unicodeScalars.allSatisfy { $0.isWordCharacter || $0 == "-" || $0 == "." }
                && handle.unicodeScalars.last.map { $0.isWordCharacter } == true
            if !fits || before?.isWordCharacter == true || after?.isWordCharacter == true {
                out[k] = .text(fallback, style)
            }
        }
        return merged(out)
    }

    private static func firstWritten(_ piece: MatrixInlinePiece) -> Unicode.Scalar? {
        switch piece {
        case .text(let t, _): return t.unicodeScalars.first.map { $0.isASCIIPunctuation ? "\\" : $0 }
        case .code: return "`"
        case .mention: return "@"
        case .lineBreak: return "\\"
        }
    }

    private static func lastWritten(_ piece: MatrixInlinePiece) -> Unicode.Scalar? {
        switch piece {
        case .text(let t, _): return t.unicodeScalars.last
        case .code: return "`"
        case .mention(let handle, _, _, _): return handle.unicodeScalars.last
        case .lineBreak: return "\n"
        }
    }

    // MARK: Writing

    private static func spans(_ style: MatrixInlineStyle) -> [Span] {
        // One fixed nesting order, so spans never cross: links outermost (they cannot nest).
        var out: [Span] = []
        if let link = style.link { out.append(.link(link)) }
        // Spoilers outside ruby (a base cannot hold `|`), ruby outside the rest, so a base
        // that is partly bold stays one annotation.
        if style.spoiler { out.append(.spoiler) }
        if let ruby = style.ruby { out.append(.ruby(ruby)) }
        if style.strikethrough { out.append(.strikethrough) }
        if style.strong { out.append(.strong) }
        if style.emphasis { out.append(.emphasis) }
        return out
    }

    private static func write(_ pieces: [MatrixInlinePiece]) -> String {
        var out = ""
        var open: [Span] = []
        func moveTo(_ wanted: [Span]) {
            var common = 0
            while common < open.count, common < wanted.count, open[common] == wanted[common] { common += 1 }
            for span in open[common...].reversed() { out += closing(span) }
            for span in wanted[common...] { out += opening(span) }
            open = wanted
        }
        for piece in pieces {
            moveTo(spans(piece.style))
            switch piece {
            case .text(let t, _): out += escape(t)
            case .code(let t, _): out += codeSpan(t)
            case .mention(let handle, _, _, _): out += "@" + handle
            case .lineBreak: out += "\\\n"
            }
        }
        moveTo([])
        return out
    }

    private static func opening(_ span: Span) -> String {
        switch span {
        case .link: return "["
        case .ruby: return "{"
        case .spoiler: return "||"
        case .strikethrough: return "~~"
        case .strong: return "**"
        case .emphasis: return "*"
        }
    }

    private static func closing(_ span: Span) -> String {
        switch span {
        case .link(let url): return "](" + destination(url) + ")"
        case .ruby(let ruby): return "|" + escape(ruby.reading) + "}"
        default: return opening(span)
        }
    }

    /// A link destination without `<…>`: whitespace and controls are already percent-encoded, so
    /// only the characters our parser reads inside one need a backslash.
    private static func destination(_ url: String) -> String {
        var out = String.UnicodeScalarView()
        for c in url.unicodeScalars {
            if c == "(" || c == ")" || c == "<" || c == ">" || c == "\\" || c == "&" { out.append("\\") }
            out.append(c)
        }
        return String(out)
    }

    /// A code span fenced by a backtick run longer than any inside; padded with spaces when the
    /// content starts or ends with a backtick, or with a space at both ends (which the parser strips).
    static func codeSpan(_ code: String) -> String {
        let fence = String(repeating: "`", count: longestBacktickRun(in: code) + 1)
        let s = code.unicodeScalars
        let pad = s.first == "`" || s.last == "`" || (s.first == " " && s.last == " " && s.contains { $0 != " " })
        return fence + (pad ? " " + code + " " : code) + fence
    }

    /// The length of the longest run of backticks in `text` (0 when there is none).
    static func longestBacktickRun(in text: String) -> Int {
        var longest = 0
        var run = 0
        for c in text.unicodeScalars {
            run = c == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }

    // MARK: Checking

    /// Text, code and mentions with the style they show in, adjacent text merged.
    private enum Shown: Equatable {
        case text(String, MatrixInlineStyle)
        case code(String, MatrixInlineStyle)
        case mention(String, MatrixInlineStyle)
    }

    private static func shown(_ pieces: [MatrixInlinePiece]) -> [Shown] {
        var out: [Shown] = []
        func add(_ item: Shown) {
            if case .text(let b, let s2) = item, case .text(let a, let s1)? = out.last, s1 == s2 {
                out[out.count - 1] = .text(a + b, s1)
            } else {
                out.append(item)
            }
        }
        for piece in pieces {
            switch piece {
            case .text(let t, let s): add(.text(t, s))
            case .code(let t, let s): add(.code(t, s))
            case .mention(_, let id, _, let s): add(.mention(id, s))
            case .lineBreak(let s): add(.text("\n", s))
            }
        }
        return out
    }

    /// Annotations numbered by order of appearance, as the parser numbers them in one block.
    private static func renumbered(_ items: [Shown]) -> [Shown] {
        var numbers: [Int: Int] = [:]
        func renumber(_ style: MatrixInlineStyle) -> MatrixInlineStyle {
            guard var ruby = style.ruby else { return style }
            if numbers[ruby.number] == nil { numbers[ruby.number] = numbers.count + 1 }
            ruby.number = numbers[ruby.number]!
            var s = style
            s.ruby = ruby
            return s
        }
        return items.map { item in
            switch item {
            case .text(let t, let s): return .text(t, renumber(s))
            case .code(let t, let s): return .code(t, renumber(s))
            case .mention(let id, let s): return .mention(id, renumber(s))
            }
        }
    }

    private static func parsesBack(_ markdown: String, as pieces: [MatrixInlinePiece]) -> Bool {
        var ids: [String: String] = [:]
        for case .mention(let handle, let id, _, _) in pieces { ids[handle.lowercased()] = id }
        let document = MarkupDocument(parsing: markdown, handles: { ids[$0.lowercased()] })
        guard document.blocks.count <= 1 else { return false }
        guard let block = document.blocks.first else { return pieces.isEmpty }
        guard block.block.role == .paragraph, block.block.quoteDepth == 0 else { return false }
        var got: [Shown] = []
        var style = MatrixInlineStyle()
        var counts = (emphasis: 0, strong: 0, strikethrough: 0, spoiler: 0)
        var links: [String] = []
        var ruby: MatrixRuby?
        var rubyCount = 0
        func add(_ item: Shown) {
            if case .text(let b, let s2) = item, case .text(let a, let s1)? = got.last, s1 == s2 {
                got[got.count - 1] = .text(a + b, s1)
            } else {
                got.append(item)
            }
        }
        for item in block.items {
            switch item {
            case .text(let t), .rawHTML(let t): add(.text(t, style))
            case .code(let t): add(.code(t, style))
            case .mention(_, let id): add(.mention(id, style))
            case .lineBreak: add(.text("\n", style))
            case .open(let span), .close(let span):
                let step: Int
                if case .open = item { step = 1 } else { step = -1 }
                switch span {
                case .emphasis: counts.emphasis += step
                case .strong: counts.strong += step
                case .strikethrough: counts.strikethrough += step
                case .spoiler: counts.spoiler += step
                case .ruby(let reading):
                    // Annotations never nest: a base is parsed apart and cannot hold a `{`.
                    rubyCount += step > 0 ? 1 : 0
                    ruby = step > 0 ? MatrixRuby(reading: reading, number: rubyCount) : nil
                case .link(let destination, _):
                    if step > 0 { links.append(destination) } else { _ = links.popLast() }
                }
                style = MatrixInlineStyle(strong: counts.strong > 0, emphasis: counts.emphasis > 0,
                                          strikethrough: counts.strikethrough > 0, spoiler: counts.spoiler > 0, link: links.last,
                                          ruby: ruby)
            }
        }
        return renumbered(got) == renumbered(shown(pieces))
    }
}
