/// Writes a parsed comment as Matrix `org.matrix.custom.html`: the tags the Matrix spec allows,
/// spoilers as `data-mx-spoiler` spans and mentions as matrix.to pills.
///
/// The shape is the one `MatrixHTMLReader` reads back into the same blocks and runs.
enum MatrixHTMLWriter {
    /// The HTML of `document`; `displayName` names a mentioned user's pill.
    static func html(_ document: MarkupDocument, displayName: (String) -> String?) -> String {
        var out = ""
        var depth = 0
        var openList: (id: Int, ordered: Bool, next: Int)?
        func closeList() {
            if let list = openList { out += list.ordered ? "</ol>" : "</ul>" }
            openList = nil
        }
        for block in document.blocks {
            let info = block.block
            if let list = openList {
                if case .listItem(_, _, let id) = info.role, id == list.id, info.quoteDepth == depth {} else { closeList() }
            }
            while depth > info.quoteDepth { out += "</blockquote>"; depth -= 1 }
            while depth < info.quoteDepth { out += "<blockquote>"; depth += 1 }
            switch info.role {
            case .paragraph:
                out += "<p>" + inline(block.items, displayName: displayName) + "</p>"
            case .codeBlock(let infoString):
                let language = infoString.split(separator: " ").first.map { " class=\"language-\(escape(String($0)))\"" } ?? ""
                let code = block.items.map { item -> String in
                    if case .code(let text) = item { return escape(VisibleControls.sanitize(text)) }
                    return ""
                }.joined()
                out += "<pre><code\(language)>" + code + "</code></pre>"
            case .listItem(let ordered, let number, let id):
                if openList == nil {
                    openList = (id, ordered, number)
                    out += ordered ? (number == 1 ? "<ol>" : "<ol start=\"\(number)\">") : "<ul>"
                }
                // Our items keep the number typed (`1.` `1.` `1.`); HTML counts on from `start`.
                let value = ordered && number != openList?.next ? " value=\"\(number)\"" : ""
                openList?.next = number + 1
                out += "<li\(value)>" + inline(block.items, displayName: displayName) + "</li>"
            }
        }
        closeList()
        while depth > 0 { out += "</blockquote>"; depth -= 1 }
        return out
    }

    private static func inline(_ items: [InlineItem], displayName: (String) -> String?) -> String {
        var out = ""
        // Whether each open link wrote an `<a>` (links of other schemes show as their text).
        var links: [Bool] = []
        for item in items {
            switch item {
            case .text(let text), .rawHTML(let text):
                out += escape(VisibleControls.sanitize(text)).replacingLineFeeds()
            case .code(let text):
                out += "<code>" + escape(VisibleControls.sanitize(text)) + "</code>"
            case .mention(let handle, let userID):
                let name = displayName(userID) ?? "@" + handle
                out += "<a href=\"https://matrix.to/#/\(escape(userID))\">\(escape(VisibleControls.sanitize(name)))</a>"
            case .lineBreak:
                out += "<br>"
            case .open(let span):
                switch span {
                case .emphasis: out += "<em>"
                case .strong: out += "<strong>"
                case .strikethrough: out += "<del>"
                case .spoiler: out += "<span data-mx-spoiler>"
                case .link(let destination, _):
                    let url = MatrixHTMLReader.permittedLink(VisibleControls.sanitize(destination))
                    links.append(url != nil && links.allSatisfy { !$0 })
                    if let url, links.last == true { out += "<a href=\"\(escape(url))\">" }
                }
            case .close(let span):
                switch span {
                case .emphasis: out += "</em>"
                case .strong: out += "</strong>"
                case .strikethrough: out += "</del>"
                case .spoiler: out += "</span>"
                case .link: if links.popLast() == true { out += "</a>" }
                }
            }
        }
        return out
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
}

private extension String {
    /// A `\n` inside text (from `&#10;`) is a line break in comments, so it is one in HTML too.
    func replacingLineFeeds() -> String {
        guard unicodeScalars.contains("\n") else { return self }
        return split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "<br>")
    }
}
