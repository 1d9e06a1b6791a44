import Foundation

/// Minimal HTML for a parsed comment, with CommonMark's tags plus spoiler and mention spans and
/// `<ruby>` for `{base|reading}`.
///
/// Used by the conformance tests and `comment-tui inspect`; raw HTML in a comment is text, so it
/// comes out escaped.
public enum HTMLRenderer {
    /// The document as HTML, one block per line as the CommonMark spec prints it.
    public static func render(_ document: MarkupDocument) -> String {
        render(document, rawHTMLVerbatim: false)
    }

    /// `rawHTMLVerbatim` passes raw HTML through as the CommonMark spec prints it (conformance
    /// tests only: comments never render HTML).
    static func render(_ document: MarkupDocument, rawHTMLVerbatim: Bool) -> String {
        blocks(document, newline: "\n", numbersEveryItem: false) { inline($0, rawHTMLVerbatim) }
    }

    /// The block structure of a document as HTML, with `inline` writing each block's items:
    /// shared by this renderer and Matrix's `formatted_body`.
    /// - Parameters:
    ///   - newline: what follows each tag that ends a line (`\n` here, nothing for Matrix).
    ///   - numbersEveryItem: gives an ordered item whose number is not the next one a `value`
    ///     (our items keep the number typed, `1.` `1.` `1.`; HTML counts on from `start`).
    static func blocks(_ document: MarkupDocument, newline: String, numbersEveryItem: Bool,
                       inline: ([InlineItem]) -> String) -> String {
        var out = ""
        var depth = 0
        var openList: (id: Int, ordered: Bool, next: Int)?
        func closeList() {
            if let list = openList { out += (list.ordered ? "</ol>" : "</ul>") + newline }
            openList = nil
        }
        for block in document.blocks {
            let info = block.block
            // Quotes the block does not go on in end here, even at the same depth.
            let kept = min(depth, info.continuedQuotes)
            if let list = openList {
                if case .listItem(_, _, let id) = info.role, id == list.id, info.quoteDepth == depth, kept == depth {} else { closeList() }
            }
            while depth > kept { out += "</blockquote>" + newline; depth -= 1 }
            while depth < info.quoteDepth { out += "<blockquote>" + newline; depth += 1 }
            switch info.role {
            case .paragraph:
                // A paragraph without text stands for an empty quote: the quote is all there is.
                if !block.items.isEmpty { out += "<p>" + inline(block.items) + "</p>" + newline }
            case .heading(let level):
                out += "<h\(level)>" + inline(block.items) + "</h\(level)>" + newline
            case .codeBlock(let infoString):
                let language = infoString.split(separator: " ").first.map { " class=\"language-\(escape(String($0)))\"" } ?? ""
                out += "<pre><code\(language)>" + block.items.map { item -> String in
                    if case .code(let text) = item { return escape(VisibleControls.sanitize(text)) }
                    return ""
                }.joined() + "</code></pre>" + newline
            case .listItem(let ordered, let number, let id):
                if openList == nil {
                    openList = (id, ordered, number)
                    out += (ordered ? (number == 1 ? "<ol>" : "<ol start=\"\(number)\">") : "<ul>") + newline
                }
                let value = numbersEveryItem && ordered && number != openList?.next ? " value=\"\(number)\"" : ""
                openList?.next = number + 1
                out += "<li\(value)>" + inline(block.items) + "</li>" + newline
            }
        }
        closeList()
        while depth > 0 { out += "</blockquote>" + newline; depth -= 1 }
        return out
    }

    /// The HTML of inline items.
    static func inline(_ items: [InlineItem], _ rawHTMLVerbatim: Bool) -> String {
        var out = ""
        for item in items {
            switch item {
            // Every `\n` in a comment's text shows as a line break, whatever produced it
            // (`&#10;`, a newline inside raw HTML), so the HTML says so too.
            case .text(let text): out += lineBreaks(escape(VisibleControls.sanitize(text)))
            case .code(let text): out += "<code>" + escape(VisibleControls.sanitize(text)) + "</code>"
            case .mention(let handle, let userID):
                out += "<span class=\"mention\" data-user=\"\(escape(userID))\">@\(escape(handle))</span>"
            case .lineBreak: out += "<br />\n"
            case .rawHTML(let html):
                let safe = VisibleControls.sanitize(html)
                out += lineBreaks(rawHTMLVerbatim ? safe : escape(safe))
            case .open(let span): out += openTag(span)
            case .close(let span): out += closeTag(span)
            }
        }
        return out
    }

    private static func openTag(_ span: InlineSpan) -> String {
        switch span {
        case .emphasis: return "<em>"
        case .strong: return "<strong>"
        case .strikethrough: return "<del>"
        case .spoiler: return "<span class=\"spoiler\">"
        case .ruby: return "<ruby>"
        case .link(let destination, let title):
            let titleAttribute = title.map { " title=\"\(escape(VisibleControls.sanitize($0)))\"" } ?? ""
            return "<a href=\"\(hrefEscape(VisibleControls.sanitize(destination)))\"\(titleAttribute)>"
        }
    }

    private static func closeTag(_ span: InlineSpan) -> String {
        switch span {
        case .emphasis: return "</em>"
        case .strong: return "</strong>"
        case .strikethrough: return "</del>"
        case .spoiler: return "</span>"
        case .ruby(let reading): return "<rt>" + escape(VisibleControls.sanitize(reading)) + "</rt></ruby>"
        case .link: return "</a>"
        }
    }

    private static func lineBreaks(_ html: String) -> String {
        html.contains("\n") ? html.replacingOccurrences(of: "\n", with: "<br />\n") : html
    }

    /// `&`, `<`, `>` and `"` as references, for text and attribute values alike.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// Percent-encodes what is not safe in a URL, as cmark does (existing `%XX` stay).
    static func hrefEscape(_ url: String) -> String {
        let safe = Set(";/?:@&=+$,-_.!~*'()#%".utf8)
        var out = ""
        for byte in url.utf8 {
            let isAlnum = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            if isAlnum || safe.contains(byte) {
                switch byte {
                case UInt8(ascii: "&"): out += "&amp;"
                case UInt8(ascii: "'"): out += "&#x27;"
                default: out.unicodeScalars.append(Unicode.Scalar(byte))
                }
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
