/// Writes a parsed comment as Matrix `org.matrix.custom.html`: the tags the Matrix spec allows,
/// spoilers as `data-mx-spoiler` spans and mentions as matrix.to pills. Ruby is not among the
/// spec's tags: it is written with `<rp>` parentheses, so a client that drops the tags shows
/// `漢字(かんじ)`; `MatrixMarkdownBuilder` reads it back as ruby.
///
/// The shape is the one `MatrixHTMLReader` reads back into the same blocks and runs.
enum MatrixHTMLWriter {
    /// The HTML of `document`; `displayName` names a mentioned user's pill.
    static func html(_ document: MarkupDocument, displayName: (String) -> String?) -> String {
        HTMLRenderer.blocks(document, newline: "", numbersEveryItem: true) { inline($0, displayName: displayName) }
    }

    private static func inline(_ items: [InlineItem], displayName: (String) -> String?) -> String {
        var out = ""
        // Whether each open link wrote an `<a>` (links of other schemes show as their text).
        var links: [Bool] = []
        for item in items {
            switch item {
            case .text(let text), .rawHTML(let text):
                out += HTMLRenderer.escape(VisibleControls.sanitize(text)).replacingLineFeeds()
            case .code(let text):
                out += "<code>" + HTMLRenderer.escape(VisibleControls.sanitize(text)) + "</code>"
            case .mention(let handle, let userID):
                let name = displayName(userID) ?? "@" + handle
                out += "<a href=\"https://matrix.to/#/\(HTMLRenderer.escape(userID))\">\(HTMLRenderer.escape(VisibleControls.sanitize(name)))</a>"
            case .lineBreak:
                out += "<br>"
            case .open(let span):
                switch span {
                case .emphasis: out += "<em>"
                case .strong: out += "<strong>"
                case .strikethrough: out += "<del>"
                case .spoiler: out += "<span data-mx-spoiler>"
                case .ruby: out += "<ruby>"
                case .link(let destination, _):
                    let url = MatrixHTMLReader.permittedLink(VisibleControls.sanitize(destination))
                    links.append(url != nil && links.allSatisfy { !$0 })
                    if let url, links.last == true { out += "<a href=\"\(HTMLRenderer.escape(url))\">" }
                }
            case .close(let span):
                switch span {
                case .emphasis: out += "</em>"
                case .strong: out += "</strong>"
                case .strikethrough: out += "</del>"
                case .spoiler: out += "</span>"
                case .ruby(let reading):
                    out += "<rp>(</rp><rt>" + HTMLRenderer.escape(VisibleControls.sanitize(reading)) + "</rt><rp>)</rp></ruby>"
                case .link: if links.popLast() == true { out += "</a>" }
                }
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
