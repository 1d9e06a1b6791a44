/// A parsed comment body: its blocks and their inline content, before it becomes attributes.
///
/// `CommentMarkup` turns it into an `AttributedString`; `HTMLRenderer` shows it as minimal HTML
/// for tests and `comment-tui inspect`.
public struct MarkupDocument: Sendable {
    struct Block: Sendable {
        var block: MarkupBlock
        var items: [InlineItem]
    }

    var blocks: [Block]

    /// Parses `body`; `handles` maps an `@handle` to a user id, for known users only.
    public init(parsing body: String, handles: (String) -> String?) {
        // Definitions first: a reference may come before the definition it uses.
        var references = LinkReferences()
        var sources: [SourceBlock] = []
        for var source in BlockParser.parse(body) {
            switch source.role {
            case .paragraph where !source.lines.isEmpty, .listItem:
                let text = references.extract(from: source.lines.joined(separator: "\n"))
                // A paragraph of definitions only is gone, but the quote it was in stays (empty);
                // an emptied list item stays, empty.
                if text.isEmpty, source.role == .paragraph, source.quoteDepth == 0 { continue }
                source.lines = text.isEmpty ? [] : [text]
            case .paragraph, .codeBlock, .heading:
                break
            }
            sources.append(source)
        }
        let definitions = references.definitions
        blocks = withoutActuallyEscaping(handles) { handles in
            sources.enumerated().map { index, source in
                let block = MarkupBlock(role: source.role, quoteDepth: source.quoteDepth, index: index,
                                        continuedQuotes: source.continuedQuotes)
                if case .codeBlock = source.role {
                    let code = source.lines.map { $0 + "\n" }.joined()
                    return Block(block: block, items: code.isEmpty ? [] : [.code(code)])
                }
                var text = source.lines.joined(separator: "\n")
                while let last = text.unicodeScalars.last, last == " " || last == "\t" { text.unicodeScalars.removeLast() }
                return Block(block: block, items: InlineParser.parse(text, handles: handles, references: definitions))
            }
        }
    }
}

