/// How a parse reads `||`, `{`, `|` and `}`: as our spoiler and ruby markup, or as the plain
/// text they are on GitHub (which `CommentMarkup.escapingSpoilersAndRuby` compares against).
enum ExtensionSyntax {
    case markup
    case text
}

/// Parses the inline content of one block (CommonMark 0.31.2 inlines, GFM strikethrough and
/// extended autolinks, `||spoilers||`, `@mentions` and `{ruby|readings}`) into `InlineItem`s, in linear time.
///
/// The algorithm is the spec's: a scan that collects nodes, a delimiter stack processed with
/// per-kind lower bounds, and a bracket stack for links. Every lookahead is either bounded or
/// skipped over afterwards, so no input makes the parser quadratic.
struct InlineParser {
    /// A node collected by the scan; delimiter and bracket nodes gain spans when they match.
    struct Node {
        enum Kind {
            case text(String)
            case code(String)
            case mention(handle: String, userID: String)
            case lineBreak
            case autolink(destination: String, text: String)
            /// What is left of a run of `*`, `_`, `~` or `|` after matching.
            case delimiterRun(Unicode.Scalar, Int)
            /// An HTML tag, comment or the like: kept as text, never parsed inside.
            case rawHTML(String)
            /// `{base|reading}`, the base already parsed.
            case ruby(base: [InlineItem], reading: String)
        }
        var kind: Kind
        /// Spans that end just before this node's text, inner first.
        var closesBefore: [InlineSpan] = []
        /// Spans that start just after this node's text, inner first.
        var opensAfter: [InlineSpan] = []
    }

    let scalars: [Unicode.Scalar]
    let handles: (String) -> String?
    let references: [String: LinkReferences.Definition]
    let extensions: ExtensionSyntax
    var position = 0
    var nodes: [Node] = []
    var pendingText = PendingText()
    var delimiters: [Delimiter] = []
    var lastDelimiter = -1
    var brackets: [Bracket] = []
    var bracketsInactiveBelow = 0
    /// Mentions, autolinks and ruby, whose links and mentions become plain text when a link
    /// forms around them.
    var atoms: [Int] = []
    var backtickRuns: BacktickRuns
    /// Raw HTML terminators (`-->`, `?>`, …) known to be absent from the rest of the text.
    var rawHTMLTerminatorsMissing: Set<String> = []
    /// Where the `{`, `|`, `}` of each ruby annotation and the `||` of each spoiler that formed
    /// are in the text (extensions as markup), not in order.
    var formedExtensionDelimiters: [Int] = []
    /// Where each `{`, `|` and `}` read as plain text is (extensions as text): outside code
    /// spans, autolinks, raw HTML, link destinations and titles, and not escaped.
    var extensionCharactersAsText: [Int] = []

    init(_ text: String, handles: @escaping (String) -> String?, references: [String: LinkReferences.Definition] = [:],
         extensions: ExtensionSyntax = .markup) {
        var scalars: [Unicode.Scalar] = []
        // Sized by the bytes (an upper bound): counting the scalars first walks the text twice.
        scalars.reserveCapacity(text.utf8.count)
        scalars.append(contentsOf: text.unicodeScalars)
        self.scalars = scalars
        self.handles = handles
        self.references = references
        self.extensions = extensions
        backtickRuns = BacktickRuns(scalars)
    }

    /// Parses `text` into inline items.
    static func parse(_ text: String, handles: @escaping (String) -> String?,
                      references: [String: LinkReferences.Definition] = [:], extensions: ExtensionSyntax = .markup) -> [InlineItem] {
        var parser = InlineParser(text, handles: handles, references: references, extensions: extensions)
        parser.parse()
        return parser.items()
    }

    /// Finds the nodes and matches the delimiters; `items()` then has the result.
    mutating func parse() {
        scan()
        processEmphasis(above: -1)
    }

    mutating func scan() {
        while position < scalars.count {
            let c = scalars[position]
            switch c {
            case "\\": scanBackslash()
            case "`": scanCodeSpan()
            case "*", "_", "~": scanDelimiterRun(c)
            case "|": if extensions == .markup { scanDelimiterRun(c) } else { extensionCharacterAsText(c) }
            case "[": scanOpenBracket()
            case "]": scanCloseBracket()
            case "<": if !scanAngleAutolink() && !scanRawHTML() { literal(c) }
            case "&": scanEntity()
            case "\n": scanNewline()
            case "@": if !scanMention() { literal(c) }
            case "{": if extensions == .text { extensionCharacterAsText(c) } else if !scanRuby() { literal(c) }
            case "}": if extensions == .text { extensionCharacterAsText(c) } else { literal(c) }
            default:
                // Only a letter or digit may start an extended autolink, and only the first of a
                // word: the rest of the word is text, taken at once.
                guard c.isASCIIAlphanumeric else { literal(c); continue }
                if scanExtendedAutolink() { continue }
                literal(c)
                while let next = scalar(at: position), next.isASCIIAlphanumeric { literal(next) }
            }
        }
        flushText()
    }

    /// Appends one scalar to the current text and moves on.
    mutating func literal(_ c: Unicode.Scalar) {
        pendingText.append(c)
        position += 1
    }

    /// A `{`, `|` or `}` that is text because extensions are: noted, then taken as text.
    private mutating func extensionCharacterAsText(_ c: Unicode.Scalar) {
        extensionCharactersAsText.append(position)
        literal(c)
    }

    mutating func flushText() {
        guard !pendingText.isEmpty else { return }
        nodes.append(Node(kind: .text(pendingText.take())))
    }

    /// Adds a node after the pending text; returns its index.
    @discardableResult
    mutating func append(_ kind: Node.Kind) -> Int {
        flushText()
        nodes.append(Node(kind: kind))
        return nodes.count - 1
    }

    func scalar(at index: Int) -> Unicode.Scalar? {
        index >= 0 && index < scalars.count ? scalars[index] : nil
    }

    private mutating func scanBackslash() {
        guard let next = scalar(at: position + 1) else { return literal("\\") }
        if next == "\n" {
            position += 1
            scanNewline()
        } else if next.isASCIIPunctuation {
            pendingText.append(next)
            position += 2
        } else {
            literal("\\")
        }
    }

    /// A newline is a line break in comments (as on GitHub), with the spaces around it dropped.
    private mutating func scanNewline() {
        while let last = pendingText.lastASCII, last == " " || last == "\t" { pendingText.removeLastASCII() }
        append(.lineBreak)
        position += 1
        while let c = scalar(at: position), c == " " || c == "\t" { position += 1 }
    }

    private mutating func scanCodeSpan() {
        var end = position
        while scalar(at: end) == "`" { end += 1 }
        let length = end - position
        guard let closer = backtickRuns.next(length: length, after: end - 1) else {
            for _ in 0..<length { pendingText.append("`") }
            position = end
            return
        }
        var content = String.UnicodeScalarView()
        for c in scalars[end..<closer] { content.append(c == "\n" ? " " : c) }
        if content.count >= 2, content.first == " ", content.last == " ", content.contains(where: { $0 != " " }) {
            content.removeFirst()
            content.removeLast()
        }
        append(.code(String(content)))
        position = closer + length
    }

    private mutating func scanEntity() {
        if let (text, length) = CharacterReference.decode(scalars, at: position) {
            pendingText.append(contentsOf: text.unicodeScalars)
            position += length
        } else {
            literal("&")
        }
    }

    /// `@handle` of a known user, not after a word character.
    private mutating func scanMention() -> Bool {
        if let previous = scalar(at: position - 1), previous.isWordCharacter { return false }
        var end = position + 1
        while let c = scalar(at: end), c.isWordCharacter || c == "-" || c == "." { end += 1 }
        while end > position + 1, scalars[end - 1] == "." || scalars[end - 1] == "-" { end -= 1 }
        guard end > position + 1 else { return false }
        let handle = String(String.UnicodeScalarView(scalars[(position + 1)..<end]))
        guard let userID = handles(handle) else { return false }
        atoms.append(append(.mention(handle: handle, userID: userID)))
        position = end
        return true
    }

    /// The items in document order, adjacent text merged.
    func items() -> [InlineItem] {
        var out: [InlineItem] = []
        out.reserveCapacity(nodes.count)
        // Bytes, not a String's scalar view: appending to `unicodeScalars` in place copied the
        // whole text each time, so many unmatched delimiter runs (`a_ a_ …`) were quadratic.
        var text = PendingText()
        func flush() {
            if !text.isEmpty { out.append(.text(text.take())) }
        }
        for node in nodes {
            if !node.closesBefore.isEmpty { flush(); out += node.closesBefore.map(InlineItem.close) }
            switch node.kind {
            case .text(let t): text.append(t)
            case .delimiterRun(let c, let count): for _ in 0..<count { text.append(c) }
            case .code(let t): flush(); out.append(.code(t))
            case .mention(let handle, let userID): flush(); out.append(.mention(handle: handle, userID: userID))
            case .lineBreak: flush(); out.append(.lineBreak)
            case .rawHTML(let html): flush(); out.append(.rawHTML(html))
            case .ruby(let base, let reading):
                flush()
                out.append(.open(.ruby(reading: reading)))
                out += base
                out.append(.close(.ruby(reading: reading)))
            case .autolink(let destination, let label):
                flush()
                out += [.open(.link(destination: destination, title: nil)), .text(label), .close(.link(destination: destination, title: nil))]
            }
            if !node.opensAfter.isEmpty { flush(); out += node.opensAfter.reversed().map(InlineItem.open) }
        }
        flush()
        return out
    }
}
