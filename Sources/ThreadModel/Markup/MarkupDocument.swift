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
        self.init(parsing: body, handles: handles, extensions: .markup)
    }

    /// Parses `body` with `||`, `{`, `|` and `}` read as `extensions` says.
    init(parsing body: String, handles: (String) -> String?, extensions: ExtensionSyntax) {
        let (sources, definitions) = Self.sources(of: body)
        blocks = withoutActuallyEscaping(handles) { handles in
            sources.enumerated().map { index, source in
                let block = MarkupBlock(role: source.role, quoteDepth: source.quoteDepth, index: index,
                                        continuedQuotes: source.continuedQuotes)
                if case .codeBlock = source.role {
                    let code = source.lines.map { $0.text + "\n" }.joined()
                    return Block(block: block, items: code.isEmpty ? [] : [.code(code)])
                }
                return Block(block: block, items: InlineParser.parse(source.inlineText, handles: handles,
                                                                     references: definitions, extensions: extensions))
            }
        }
    }

    /// The blocks of `body` with the link reference definitions taken out of their text, and
    /// those definitions.
    static func sources(of body: String) -> (blocks: [SourceBlock], definitions: [String: LinkReferences.Definition]) {
        // Definitions first: a reference may come before the definition it uses.
        var references = LinkReferences()
        var sources: [SourceBlock] = []
        for var source in BlockParser.parse(body) {
            switch source.role {
            case .paragraph where !source.lines.isEmpty, .listItem:
                source.lines.removeFirst(references.extract(from: source.lines))
                // A paragraph of definitions only is gone, but the quote it was in stays (empty);
                // an emptied list item stays, empty.
                if source.lines.isEmpty, source.role == .paragraph, source.quoteDepth == 0 { continue }
            case .paragraph, .codeBlock, .heading:
                break
            }
            sources.append(source)
        }
        return (sources, references.definitions)
    }
}
