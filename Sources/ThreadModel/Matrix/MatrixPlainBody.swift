/// The plain `body` of an outgoing message: what a client that shows no HTML (and a notification)
/// shows, written from the parsed comment rather than copied from the Markdown as typed.
///
/// So it carries no Markdown escapes (`\*`, `&amp;`) and no handles of ours: a handle is only
/// ours (`@alice.127.0.0.1_34405` means nothing elsewhere), so a mention is written as the
/// user's display name, else their Matrix id. Emphasis keeps its usual delimiters (`**bold**`),
/// which plain-text readers know; a link shows its target after its text when they differ.
enum MatrixPlainBody {
    /// The plain text of `document`; `displayName` names a mentioned user.
    static func text(_ document: MarkupDocument, displayName: (String) -> String?) -> String {
        var out = ""
        var previous: MarkupBlock?
        for block in document.blocks {
            let info = block.block
            if let previous {
                // Items of one list stay on consecutive lines; other blocks are paragraphs apart.
                if case .listItem(_, _, let list) = info.role, case .listItem(_, _, list) = previous.role,
                   previous.quoteDepth == info.quoteDepth {
                    out += "\n"
                } else {
                    let kept = min(previous.quoteDepth, info.quoteDepth, info.continuedQuotes)
                    out += "\n" + String(repeating: "> ", count: kept).trimmingTrailingSpaces() + "\n"
                }
            }
            let quote = String(repeating: "> ", count: info.quoteDepth)
            let text: String
            switch info.role {
            case .paragraph: text = inline(block.items, displayName: displayName)
            case .heading(let level): text = String(repeating: "#", count: level) + " " + inline(block.items, displayName: displayName)
            case .listItem(let ordered, let number, _): text = (ordered ? "\(number). " : "- ") + inline(block.items, displayName: displayName)
            case .codeBlock(let infoString):
                let code = block.items.map { if case .code(let text) = $0 { text } else { "" } }.joined()
                text = "```" + infoString + "\n" + code + "```"
            }
            out += text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { (quote + $0).trimmingTrailingSpaces() }.joined(separator: "\n")
            previous = info
        }
        return out
    }

    private static func inline(_ items: [InlineItem], displayName: (String) -> String?) -> String {
        var out = ""
        var linkStarts: [Int] = []
        for item in items {
            switch item {
            case .text(let text), .rawHTML(let text): out += text
            case .code(let text):
                // Enough backticks that the code's own do not end it.
                let fence = String(repeating: "`", count: (text.longestRun(of: "`")) + 1)
                out += fence + (text.hasPrefix("`") || text.hasSuffix("`") ? " \(text) " : text) + fence
            case .mention(_, let userID): out += displayName(userID).map { $0.isEmpty ? userID : $0 } ?? userID
            case .lineBreak: out += "\n"
            case .open(let span):
                switch span {
                case .emphasis: out += "*"
                case .strong: out += "**"
                case .strikethrough: out += "~~"
                case .spoiler: out += "||"
                case .ruby: break
                case .link: linkStarts.append(out.utf8.count)
                }
            case .close(let span):
                switch span {
                case .emphasis: out += "*"
                case .strong: out += "**"
                case .strikethrough: out += "~~"
                case .spoiler: out += "||"
                case .ruby(let reading): out += "(" + reading + ")"
                case .link(let destination, _):
                    let shown = String(decoding: out.utf8.dropFirst(linkStarts.popLast() ?? 0), as: UTF8.self)
                    if shown != destination, "mailto:" + shown != destination { out += " (" + destination + ")" }
                }
            }
        }
        return out
    }
}

private extension String {
    /// The most consecutive `character`s anywhere in the string.
    func longestRun(of character: Character) -> Int {
        var longest = 0, run = 0
        for c in self {
            run = c == character ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }

    func trimmingTrailingSpaces() -> String {
        var text = Substring(self)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
