import Foundation

/// The entry point: comment bodies into `AttributedString`s with `CommentAttributes`.
public enum CommentMarkup {
    /// Parses `body`; `handles` maps an `@handle` to a user id, for known users only.
    public static func parse(_ body: String, handles: (String) -> String?) -> AttributedString {
        attributedString(for: MarkupDocument(parsing: body, handles: handles))
    }

    /// Parses `body` with the users of a thread supplying the handles.
    public static func parse(_ body: String, users: [User]) -> AttributedString {
        let ids = Dictionary(users.map { ($0.handle, $0.id) }, uniquingKeysWith: { first, _ in first })
        return parse(body, handles: { ids[$0] })
    }

    /// The attributed text of a parsed document: blocks separated by `\n` runs without a block.
    public static func attributedString(for document: MarkupDocument) -> AttributedString {
        var builder = AttributedRunsBuilder()
        var spoilerCount = 0
        for (n, block) in document.blocks.enumerated() {
            if n > 0 { builder.append("\n", AttributeContainer()) }
            var base = AttributeContainer()
            base[CommentAttributes.BlockAttribute.self] = block.block
            if case .codeBlock = block.block.role { base[CommentAttributes.CodeAttribute.self] = true }
            var stack: [InlineSpan] = []
            var current = base
            for item in block.items {
                switch item {
                case .text(let text):
                    builder.append(text, current)
                case .code(let text):
                    var code = current
                    code[CommentAttributes.CodeAttribute.self] = true
                    builder.append(text, code)
                case .mention(let handle, let userID):
                    var mention = current
                    mention[CommentAttributes.MentionAttribute.self] = userID
                    builder.append("@" + handle, mention)
                case .lineBreak:
                    builder.append("\n", current)
                case .open(let span):
                    if span == .spoiler { spoilerCount += 1 }
                    stack.append(span)
                    current = attributes(base: base, stack: stack, spoiler: spoilerCount)
                case .close:
                    _ = stack.popLast()
                    current = attributes(base: base, stack: stack, spoiler: spoilerCount)
                }
            }
        }
        return builder.build()
    }

    private static func attributes(base: AttributeContainer, stack: [InlineSpan], spoiler: Int) -> AttributeContainer {
        var container = base
        for span in stack {
            switch span {
            case .emphasis: container[CommentAttributes.EmphasisAttribute.self] = true
            case .strong: container[CommentAttributes.StrongAttribute.self] = true
            case .strikethrough: container[CommentAttributes.StrikethroughAttribute.self] = true
            case .spoiler: container[CommentAttributes.SpoilerAttribute.self] = spoiler
            case .link(let destination, _):
                container[CommentAttributes.LinkAttribute.self] = VisibleControls.sanitize(destination)
            }
        }
        return container
    }
}
