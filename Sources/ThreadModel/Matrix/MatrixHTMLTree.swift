/// A lenient parse of Matrix message HTML into elements and text, bounded in depth.
///
/// Not an HTML5 parser, but it borrows enough of its recovery rules (unclosed tags, stray end
/// tags, implied `</p>`, `</li>`, `</td>`) that every input gives a tree, in one forward pass:
/// no search is repeated, so hostile input costs linear time.
struct MatrixHTMLTree {
    struct Node {
        /// The lowercased tag name; nil for a text node.
        var name: String?
        var attributes: [String: String] = [:]
        /// Entity-decoded text (text nodes only), whitespace as in the source.
        var text = ""
        var children: [Int] = []
    }

    /// Elements nested deeper than this are dropped; their content stays, as text of the deepest.
    static let maximumDepth = 100

    /// All nodes; node 0 is the root.
    private(set) var nodes: [Node] = [Node(name: "#root")]
    private var stack: [Int] = [0]
    /// Start tags dropped for depth, by name, so their end tags do not close an outer element.
    private var ignoredOpen: [String: Int] = [:]

    private static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
    ]
    /// Elements whose content is not markup; it is skipped whole, never shown.
    private static let rawTextElements: Set<String> = [
        "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript", "plaintext",
    ]
    static let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]
    /// Elements that end an open `<p>`, as in HTML.
    private static let paragraphClosers: Set<String> = [
        "address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset", "figcaption", "figure",
        "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "main", "menu", "nav",
        "ol", "p", "pre", "section", "table", "ul", "li", "summary",
    ]

    /// The tree of `html`.
    init(parsing html: String) {
        consume(Array(html.unicodeScalars))
    }

    // MARK: Tokenizer

    private mutating func consume(_ s: [Unicode.Scalar]) {
        var i = 0
        var text = String.UnicodeScalarView()
        func at(_ k: Int) -> Unicode.Scalar? { k < s.count ? s[k] : nil }
        while i < s.count {
            let c = s[i]
            if c == "&" {
                if let (decoded, length) = CharacterReference.decode(s, at: i) {
                    text.append(contentsOf: decoded.unicodeScalars)
                    i += length
                } else {
                    text.append(c)
                    i += 1
                }
                continue
            }
            guard c == "<", let next = at(i + 1) else {
                text.append(c)
                i += 1
                continue
            }
            if next == "!" || next == "?" {
                flush(&text)
                if next == "!", at(i + 2) == "-", at(i + 3) == "-" {
                    i = Self.commentEnd(s, from: i + 4)
                } else {
                    i = Self.after(">", in: s, from: i + 2)
                }
            } else if next == "/" {
                flush(&text)
                guard let letter = at(i + 2), letter.isASCIILetter else {
                    // `</>` is nothing; `</3` and the like are bogus comments up to `>`.
                    i = Self.after(">", in: s, from: i + 2)
                    continue
                }
                let (name, nameEnd) = Self.tagName(s, from: i + 2)
                let end = Self.after(">", in: s, from: nameEnd)
                // An end tag cut off by the end of input is dropped, as HTML drops it.
                if end <= s.count, s[end - 1] == ">" { close(name) }
                i = end
            } else if next.isASCIILetter {
                flush(&text)
                guard let (name, attributes, end) = Self.startTag(s, from: i + 1) else {
                    i = s.count  // A tag cut off by the end of input is dropped.
                    continue
                }
                i = end
                if Self.rawTextElements.contains(name) {
                    i = Self.rawTextEnd(s, name: name, from: i)
                } else {
                    open(name, attributes)
                }
            } else {
                text.append(c)
                i += 1
            }
        }
        flush(&text)
    }

    private mutating func flush(_ text: inout String.UnicodeScalarView) {
        guard !text.isEmpty else { return }
        let parent = stack[stack.count - 1]
        if let last = nodes[parent].children.last, nodes[last].name == nil {
            nodes[last].text.unicodeScalars.append(contentsOf: text)
        } else {
            nodes.append(Node(name: nil, text: String(text)))
            nodes[parent].children.append(nodes.count - 1)
        }
        text = String.UnicodeScalarView()
    }

    /// The index just past the next `terminator` at or after `start`, or the end of input.
    private static func after(_ terminator: Unicode.Scalar, in s: [Unicode.Scalar], from start: Int) -> Int {
        var i = start
        while i < s.count, s[i] != terminator { i += 1 }
        return min(i + 1, s.count)
    }

    /// The index after `-->` (or HTML's abrupt `<!-->`, `<!--->`), or the end of input.
    private static func commentEnd(_ s: [Unicode.Scalar], from start: Int) -> Int {
        if start < s.count, s[start] == ">" { return start + 1 }
        if start + 1 < s.count, s[start] == "-", s[start + 1] == ">" { return start + 2 }
        var i = start
        while i + 2 < s.count {
            if s[i] == "-", s[i + 1] == "-", s[i + 2] == ">" { return i + 3 }
            i += 1
        }
        return s.count
    }

    /// A lowercased tag (or attribute) name and the index after it.
    private static func tagName(_ s: [Unicode.Scalar], from start: Int, attribute: Bool = false) -> (String, Int) {
        var i = start
        var name = String.UnicodeScalarView()
        while i < s.count, !isTagSpace(s[i]), s[i] != "/", s[i] != ">", !(attribute && s[i] == "=") {
            let c = s[i]
            name.append((0x41...0x5A).contains(c.value) ? Unicode.Scalar(c.value + 0x20) ?? c : c)
            i += 1
        }
        return (String(name), i)
    }

    /// A start tag's name, attributes and the index after its `>`; nil when input ends inside it.
    private static func startTag(_ s: [Unicode.Scalar], from start: Int) -> (String, [String: String], Int)? {
        let (name, nameEnd) = tagName(s, from: start)
        var attributes: [String: String] = [:]
        var i = nameEnd
        while true {
            while i < s.count, isTagSpace(s[i]) || s[i] == "/" { i += 1 }
            guard i < s.count else { return nil }
            if s[i] == ">" { return (name, attributes, i + 1) }
            // An attribute name runs to a space, `/`, `>` or `=` (a leading `=` belongs to it).
            var (attribute, j) = tagName(s, from: i, attribute: true)
            if attribute.isEmpty, j < s.count, s[j] == "=" { (attribute, j) = ("=", j + 1) }
            while j < s.count, isTagSpace(s[j]) { j += 1 }
            var value = ""
            if j < s.count, s[j] == "=" {
                j += 1
                while j < s.count, isTagSpace(s[j]) { j += 1 }
                guard j < s.count else { return nil }
                var raw: [Unicode.Scalar] = []
                if s[j] == "\"" || s[j] == "'" {
                    let quote = s[j]
                    j += 1
                    while j < s.count, s[j] != quote { raw.append(s[j]); j += 1 }
                    guard j < s.count else { return nil }
                    j += 1
                } else {
                    while j < s.count, !isTagSpace(s[j]), s[j] != ">" { raw.append(s[j]); j += 1 }
                }
                value = decodeEntities(raw)
            }
            if attributes[attribute] == nil { attributes[attribute] = value }
            // A name of one odd character (`"`, `<`) still moves on.
            i = max(j, i + 1)
        }
    }

    /// The index after the end tag closing raw text `name`, or the end of input.
    private static func rawTextEnd(_ s: [Unicode.Scalar], name: String, from start: Int) -> Int {
        let target = Array(name.unicodeScalars)
        var i = start
        while i + 1 < s.count {
            if s[i] == "<", s[i + 1] == "/" {
                let (found, end) = tagName(s, from: i + 2)
                if found.unicodeScalars.elementsEqual(target) { return after(">", in: s, from: end) }
            }
            i += 1
        }
        return s.count
    }

    private static func decodeEntities(_ s: [Unicode.Scalar]) -> String {
        var out = String.UnicodeScalarView()
        var i = 0
        while i < s.count {
            if s[i] == "&", let (text, length) = CharacterReference.decode(s, at: i) {
                out.append(contentsOf: text.unicodeScalars)
                i += length
            } else {
                out.append(s[i])
                i += 1
            }
        }
        return String(out)
    }

    private static func isTagSpace(_ c: Unicode.Scalar) -> Bool {
        c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}"
    }

    // MARK: Tree building

    private mutating func open(_ name: String, _ attributes: [String: String]) {
        let isVoid = Self.voidElements.contains(name)
        if stack.count - 1 >= Self.maximumDepth {
            if !isVoid { ignoredOpen[name, default: 0] += 1 }
            return
        }
        closeImplied(by: name)
        nodes.append(Node(name: name, attributes: attributes))
        let index = nodes.count - 1
        nodes[stack[stack.count - 1]].children.append(index)
        if !isVoid { stack.append(index) }
    }

    private mutating func close(_ name: String) {
        if let count = ignoredOpen[name], count > 0 {
            ignoredOpen[name] = count - 1
            return
        }
        // HTML reads a stray `</br>` as `<br>`.
        if name == "br" { return open("br", [:]) }
        if let k = stack.lastIndex(where: { nodes[$0].name == name }), k > 0 { stack.removeSubrange(k...) }
    }

    /// Pops what a new `name` implicitly ends: an open `<p>`, the previous `<li>`, cell or row.
    private mutating func closeImplied(by name: String) {
        if Self.paragraphClosers.contains(name), nodes[stack[stack.count - 1]].name == "p" { stack.removeLast() }
        switch name {
        case "li": popOpen(["li"], within: ["ul", "ol", "menu", "blockquote", "table"])
        case "td", "th": popOpen(["td", "th"], within: ["tr", "table"])
        case "tr": popOpen(["tr", "td", "th"], within: ["table", "thead", "tbody", "tfoot"])
        case "h1", "h2", "h3", "h4", "h5", "h6":
            if let top = nodes[stack[stack.count - 1]].name, Self.headings.contains(top) { stack.removeLast() }
        default: break
        }
    }

    /// Pops through the innermost open element named in `names` that is not behind a `scope`.
    private mutating func popOpen(_ names: Set<String>, within scope: Set<String>) {
        var k = stack.count - 1
        while k > 0, let name = nodes[stack[k]].name, !scope.contains(name) {
            if names.contains(name) {
                stack.removeSubrange(k...)
                return
            }
            k -= 1
        }
    }
}
