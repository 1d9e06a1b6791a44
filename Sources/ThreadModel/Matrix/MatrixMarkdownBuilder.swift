/// Turns a `MatrixHTMLTree` into our Markdown: blocks of inline pieces, then source text.
///
/// Our blocks are flat (paragraphs, fenced code, one-paragraph list items, quote depth), so HTML
/// structure is mapped onto them: nested lists follow their parent as lists of their own, the
/// paragraphs of one list item become lines of it, headings become bold paragraphs.
struct MatrixMarkdownBuilder {
    struct ItemMarker {
        var ordered: Bool
        var number: Int
        var list: Int
    }

    enum Block {
        case inline([MatrixInlinePiece], quoteDepth: Int, item: ItemMarker?)
        case code(info: String, text: String, quoteDepth: Int)
        /// A `<blockquote>` starts here: quotes deeper than `quoteDepth` before it end.
        case quoteStart(quoteDepth: Int)
    }

    private struct Context {
        var style = MatrixInlineStyle()
        var quoteDepth = 0
        var inItem = false
        var inLink = false
    }

    private let tree: MatrixHTMLTree
    private let handleForUserID: (String) -> String?
    private(set) var blocks: [Block] = []
    private var pieces: [MatrixInlinePiece] = []
    /// The list item the next flushed pieces belong to.
    private var pendingItem: ItemMarker?
    private var listCount = 0
    private var rubyCount = 0

    private static let blockElements: Set<String> = [
        "p", "div", "section", "article", "header", "footer", "aside", "nav", "main", "address", "details",
        "summary", "figure", "figcaption", "caption", "dl", "dt", "dd", "center", "fieldset", "legend", "hgroup",
        "form", "table",
    ]
    /// Elements whose content is never shown (the reply fallback, document metadata).
    private static let hiddenElements: Set<String> = ["mx-reply", "head", "template", "select", "option", "object"]
    /// The largest list number our list markers can carry (nine digits).
    private static let largestNumber = 999_999_999

    init(tree: MatrixHTMLTree, handleForUserID: @escaping (String) -> String?) {
        self.tree = tree
        self.handleForUserID = handleForUserID
    }

    /// Converts the whole tree; `truncated` adds an ellipsis paragraph at the end.
    mutating func build(truncated: Bool) {
        children(of: 0, Context())
        flush(quoteDepth: 0)
        if truncated { blocks.append(.inline([.text("…", MatrixInlineStyle())], quoteDepth: 0, item: nil)) }
    }

    // MARK: Walking

    private mutating func children(of index: Int, _ context: Context) {
        for child in tree.nodes[index].children { walk(child, context) }
    }

    private mutating func walk(_ index: Int, _ context: Context) {
        let node = tree.nodes[index]
        guard let name = node.name else {
            pieces.append(.text(Self.collapsed(node.text), context.style))
            return
        }
        var inner = context
        switch name {
        case _ where Self.hiddenElements.contains(name): return
        case "b", "strong": inner.style.strong = true
        case "i", "em": inner.style.emphasis = true
        case "del", "s", "strike": inner.style.strikethrough = true
        case "code", "kbd", "samp", "tt":
            let text = VisibleControls.sanitize(textContent(index, lineBreak: " ").replacingNewlines())
            if !text.isEmpty { pieces.append(.code(text, context.style)) }
            return
        case "pre": return preformatted(index, context)
        case "br": return pieces.append(.lineBreak(context.style))
        case "hr":
            boundary(context)
            pieces.append(.text("---", MatrixInlineStyle()))
            return boundary(context)
        case "img":
            if let alt = node.attributes["alt"] { pieces.append(.text(Self.collapsed(alt), context.style)) }
            return
        case "a": return link(index, context)
        case "ruby": return ruby(index, context)
        case "rp": return  // The parentheses for clients without ruby.
        case "span" where node.attributes["data-mx-spoiler"] != nil:
            let reason = Self.collapsed(node.attributes["data-mx-spoiler"] ?? "").trimmingSpaces()
            // Element shows the reason before the hidden text; so do we, as plain text.
            if !reason.isEmpty { pieces.append(.text("(" + reason + ") ", context.style)) }
            inner.style.spoiler = true
        case "blockquote":
            flush(quoteDepth: context.quoteDepth)
            blocks.append(.quoteStart(quoteDepth: context.quoteDepth))
            inner.quoteDepth += 1
            inner.inItem = false
            children(of: index, inner)
            return flush(quoteDepth: inner.quoteDepth)
        case "ul", "ol", "menu": return list(index, context, ordered: name == "ol")
        case "li":
            // An item outside any list: a one-item list of its own.
            flush(quoteDepth: context.quoteDepth)
            listCount += 1
            return item(index, context, ItemMarker(ordered: false, number: 0, list: listCount))
        case "tr": return row(index, context)
        case _ where MatrixHTMLTree.headings.contains(name):
            inner.style.strong = true
            boundary(context)
            children(of: index, inner)
            return boundary(context)
        case _ where Self.blockElements.contains(name):
            boundary(context)
            children(of: index, inner)
            return boundary(context)
        default: break
        }
        children(of: index, inner)
    }

    private mutating func link(_ index: Int, _ context: Context) {
        let href = tree.nodes[index].attributes["href"] ?? ""
        if !context.inLink, let userID = MatrixHTMLReader.userID(fromPermalink: href) {
            var text = VisibleControls.sanitize(Self.collapsed(textContent(index, lineBreak: " ")).trimmingSpaces())
            if text.isEmpty { text = VisibleControls.sanitize(userID) }
            if let handle = handleForUserID(userID) {
                pieces.append(.mention(handle: handle, userID: userID, fallback: text, context.style))
            } else {
                pieces.append(.text(text, context.style))
            }
            return
        }
        var inner = context
        if !context.inLink, let url = MatrixHTMLReader.permittedLink(href) {
            inner.style.link = url
            inner.inLink = true
        }
        children(of: index, inner)
    }

    /// `<ruby>`: the base content before each `<rt>` carries that reading (HTML pairs them so);
    /// a base left without a reading, one that shows nothing, or one inside another annotation
    /// (ours do not nest) keeps it as `(reading)` text.
    private mutating func ruby(_ index: Int, _ context: Context) {
        var base: [Int] = []
        for child in tree.nodes[index].children {
            switch tree.nodes[child].name {
            case "rp": continue
            case "rt", "rtc":
                let reading = Self.collapsed(textContent(child, lineBreak: " ")).trimmingSpaces()
                let shown = base.contains { !Self.collapsed(textContent($0, lineBreak: " ")).trimmingSpaces().isEmpty }
                var inner = context
                let annotates = shown && !reading.isEmpty && context.style.ruby == nil
                if annotates {
                    rubyCount += 1
                    inner.style.ruby = MatrixRuby(reading: reading, number: rubyCount)
                }
                for node in base { walk(node, inner) }
                if !annotates, !reading.isEmpty { pieces.append(.text("(" + reading + ")", context.style)) }
                base = []
            default:
                base.append(child)
            }
        }
        for node in base { walk(node, context) }
    }

    private mutating func list(_ index: Int, _ context: Context, ordered: Bool) {
        flush(quoteDepth: context.quoteDepth)
        listCount += 1
        let list = listCount
        var number = ordered ? Self.clamped(tree.nodes[index].attributes["start"]) ?? 1 : 0
        var outside = context
        outside.inItem = false
        for child in tree.nodes[index].children {
            guard tree.nodes[child].name == "li" else {
                walk(child, outside)  // Whitespace between items; stray content shows as paragraphs.
                continue
            }
            if ordered, let value = Self.clamped(tree.nodes[child].attributes["value"]) { number = value }
            item(child, outside, ItemMarker(ordered: ordered, number: number, list: list))
            if ordered { number = min(number + 1, Self.largestNumber) }
        }
        flush(quoteDepth: context.quoteDepth)
    }

    private mutating func item(_ index: Int, _ context: Context, _ marker: ItemMarker) {
        flush(quoteDepth: context.quoteDepth)
        pendingItem = marker
        var inner = context
        inner.inItem = true
        children(of: index, inner)
        flush(quoteDepth: context.quoteDepth)
    }

    /// A table row is one paragraph, its cells separated by ` | `.
    private mutating func row(_ index: Int, _ context: Context) {
        boundary(context)
        var first = true
        for child in tree.nodes[index].children {
            let name = tree.nodes[child].name
            guard name == "td" || name == "th" else { walk(child, context); continue }
            if !first { pieces.append(.text(" | ", MatrixInlineStyle())) }
            first = false
            var cell = context
            if name == "th" { cell.style.strong = true }
            children(of: child, cell)
        }
        boundary(context)
    }

    private mutating func preformatted(_ index: Int, _ context: Context) {
        flush(quoteDepth: context.quoteDepth)
        let node = tree.nodes[index]
        var text = textContent(index, lineBreak: "\n")
        // HTML drops a newline right after `<pre>`; the last newline ends the last line.
        if let first = node.children.first, tree.nodes[first].name == nil, text.hasPrefix("\n") { text.removeFirst() }
        if text.hasSuffix("\n") { text.removeLast() }
        guard !text.isEmpty else { return }
        let code = node.children.first { tree.nodes[$0].name == "code" }
        let info = Self.language(tree.nodes[code ?? index].attributes["class"]) ?? Self.language(node.attributes["class"]) ?? ""
        blocks.append(.code(info: info, text: VisibleControls.sanitize(text), quoteDepth: context.quoteDepth))
    }

    /// The text of a subtree, tags dropped (hidden ones with their content), `<br>` as `lineBreak`.
    private func textContent(_ index: Int, lineBreak: String) -> String {
        var out = ""
        func visit(_ i: Int) {
            let node = tree.nodes[i]
            guard let name = node.name else { return out += node.text }
            if Self.hiddenElements.contains(name) { return }
            if name == "br" { return out += lineBreak }
            if name == "img", let alt = node.attributes["alt"] { out += alt }
            for child in node.children { visit(child) }
        }
        visit(index)
        return out
    }

    // MARK: Blocks

    /// A block boundary: inside a list item a line break (items hold one paragraph), else a flush.
    private mutating func boundary(_ context: Context) {
        if context.inItem, pendingItem != nil {
            if let last = pieces.last, case .lineBreak = last {} else if !pieces.isEmpty {
                pieces.append(.lineBreak(MatrixInlineStyle()))
            }
        } else {
            flush(quoteDepth: context.quoteDepth)
        }
    }

    private mutating func flush(quoteDepth: Int) {
        let normalized = Self.normalized(pieces)
        pieces = []
        if let item = pendingItem {
            blocks.append(.inline(normalized, quoteDepth: quoteDepth, item: item))
            pendingItem = nil
        } else if !normalized.isEmpty {
            blocks.append(.inline(normalized, quoteDepth: quoteDepth, item: nil))
        }
    }

    /// HTML's whitespace rules on a block's pieces, then whitespace moved out of span edges
    /// (a delimiter next to a space cannot open or close).
    static func normalized(_ input: [MatrixInlinePiece]) -> [MatrixInlinePiece] {
        // Collapse spaces across pieces; none at the block's start or end or around a line break.
        var pieces: [MatrixInlinePiece] = []
        var afterSpace = true
        for piece in MatrixInlineMarkdown.merged(input) {
            switch piece {
            case .text(let t, let s):
                var out = String.UnicodeScalarView()
                for c in t.unicodeScalars {
                    if c == " " { if afterSpace { continue }; afterSpace = true } else { afterSpace = false }
                    out.append(c)
                }
                if !out.isEmpty { pieces.append(.text(String(out), s)) }
            case .lineBreak:
                trimTrailingSpace(&pieces)
                pieces.append(piece)
                afterSpace = true
            default:
                pieces.append(piece)
                afterSpace = false
            }
        }
        trimTrailingSpace(&pieces)
        while let last = pieces.last, case .lineBreak = last {
            pieces.removeLast()
            trimTrailingSpace(&pieces)
        }
        // Whitespace at a span's edge takes the style it shares with the neighbour outside.
        var out: [MatrixInlinePiece] = []
        for (k, piece) in pieces.enumerated() {
            let previous = k > 0 ? pieces[k - 1].style : nil
            let next = k + 1 < pieces.count ? pieces[k + 1].style : nil
            switch piece {
            case .lineBreak(let s):
                out.append(.lineBreak(s.intersection(previous).intersection(next)))
            case .text(let t, let s):
                let scalars = Array(t.unicodeScalars)
                let lead = previous == s ? 0 : scalars.prefix(while: { $0.isMarkdownWhitespace }).count
                let trail = next == s || lead == scalars.count ? 0 : scalars.reversed().prefix(while: { $0.isMarkdownWhitespace }).count
                if lead > 0 { out.append(.text(String(String.UnicodeScalarView(scalars[..<lead])), s.intersection(previous))) }
                if lead + trail < scalars.count {
                    out.append(.text(String(String.UnicodeScalarView(scalars[lead..<(scalars.count - trail)])), s))
                }
                if trail > 0 { out.append(.text(String(String.UnicodeScalarView(scalars[(scalars.count - trail)...])), s.intersection(next))) }
            default:
                out.append(piece)
            }
        }
        return MatrixInlineMarkdown.merged(out)
    }

    private static func trimTrailingSpace(_ pieces: inout [MatrixInlinePiece]) {
        guard case .text(var t, let s)? = pieces.last else { return }
        while t.unicodeScalars.last == " " { t.unicodeScalars.removeLast() }
        if t.isEmpty { pieces.removeLast() } else { pieces[pieces.count - 1] = .text(t, s) }
    }

    // MARK: Small parts

    /// HTML whitespace runs as one space (outside `<pre>`); controls made visible.
    static func collapsed(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var space = false
        for c in text.unicodeScalars {
            if c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}" {
                if !space { out.append(" ") }
                space = true
            } else {
                out.append(c)
                space = false
            }
        }
        return VisibleControls.sanitize(String(out))
    }

    /// The `x` of a `language-x` class, when it is a plain language name.
    private static func language(_ classes: String?) -> String? {
        guard let classes else { return nil }
        for word in classes.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) where word.hasPrefix("language-") {
            let name = word.dropFirst("language-".count)
            if !name.isEmpty, name.count <= 40,
               name.unicodeScalars.allSatisfy({ $0.isASCIIAlphanumeric || "+#._-".unicodeScalars.contains($0) }) {
                return String(name)
            }
        }
        return nil
    }

    private static func clamped(_ attribute: String?) -> Int? {
        guard let attribute, let value = Int(attribute.trimmingSpaces().prefix(12)) else { return nil }
        return min(max(value, 0), largestNumber)
    }
}

private extension String {
    /// Without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        let s = unicodeScalars
        guard let first = s.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = s.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(s[first...last])
    }

    /// Newlines (from a `<code>` that spans lines) as spaces, as a code span shows them.
    func replacingNewlines() -> String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0 == "\n" ? " " : $0 }))
    }
}
