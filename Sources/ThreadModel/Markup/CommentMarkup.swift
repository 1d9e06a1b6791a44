import Foundation

/// The entry point: comment bodies into `AttributedString`s with `CommentAttributes`.
public enum CommentMarkup {
    /// Parses `body`; `handles` maps an `@handle` to a user id, for known users only.
    public static func parse(_ body: String, handles: (String) -> String?) -> AttributedString {
        attributedString(for: MarkupDocument(parsing: body, handles: handles))
    }

    /// Parses `body` with the users of a thread supplying the handles.
    public static func parse(_ body: String, users: [User]) -> AttributedString {
        // Handles are unique ignoring case, so `@Bob` mentions bob.
        let ids = Dictionary(users.map { ($0.handle.lowercased(), $0.id) }, uniquingKeysWith: { first, _ in first })
        return parse(body, handles: { ids[$0.lowercased()] })
    }

    /// Parses `body` into plain runs: the same text and attributes as `parse`, cheaper to walk.
    public static func parseRuns(_ body: String, handles: (String) -> String?) -> MarkupRuns {
        builder(for: MarkupDocument(parsing: body, handles: handles)).runs
    }

    /// The attributed text of a parsed document: blocks separated by `\n` runs without a block.
    public static func attributedString(for document: MarkupDocument) -> AttributedString {
        builder(for: document).attributedString()
    }

    private static func builder(for document: MarkupDocument) -> MarkupRunsBuilder {
        var builder = MarkupRunsBuilder()
        var spoilerCount = 0
        var rubyCount = 0
        var started = false
        // The quotes that go on across the empty quotes left out (they have no text to show).
        var continuedQuotes = Int.max
        for block in document.blocks {
            if block.items.isEmpty, block.block.role == .paragraph {
                continuedQuotes = min(continuedQuotes, block.block.continuedQuotes)
                continue
            }
            if started { builder.append("\n", MarkupStyle()) }
            started = true
            var base = MarkupStyle()
            var info = block.block
            info.continuedQuotes = min(info.continuedQuotes, continuedQuotes)
            continuedQuotes = Int.max
            base.block = info
            if case .codeBlock = block.block.role { base.code = true }
            var spans = OpenSpans()
            var current = base
            for item in block.items {
                switch item {
                case .text(let text), .rawHTML(let text):
                    builder.append(text, current)
                case .code(let text):
                    var code = current
                    code.code = true
                    builder.append(text, code)
                case .mention(let handle, let userID):
                    var mention = current
                    mention.mention = userID
                    builder.append("@" + handle, mention)
                case .lineBreak:
                    builder.append("\n", current)
                case .open(let span):
                    if span == .spoiler { spoilerCount += 1 }
                    if case .ruby = span { rubyCount += 1 }
                    spans.open(span, spoiler: spoilerCount, ruby: rubyCount)
                    current = spans.style(base: base)
                case .close(let span):
                    spans.close(span)
                    current = spans.style(base: base)
                }
            }
        }
        return builder
    }

    /// Counts of the spans open at a point, so each open or close costs O(1) however deep
    /// the nesting goes.
    private struct OpenSpans {
        var emphasis = 0
        var strong = 0
        var strikethrough = 0
        var spoilers: [Int] = []
        var links: [String] = []
        var rubies: [RubyAnnotation] = []

        mutating func open(_ span: InlineSpan, spoiler: Int, ruby: Int) {
            switch span {
            case .emphasis: emphasis += 1
            case .strong: strong += 1
            case .strikethrough: strikethrough += 1
            case .spoiler: spoilers.append(spoiler)
            case .link(let destination, _): links.append(VisibleControls.sanitize(destination))
            case .ruby(let reading): rubies.append(RubyAnnotation(reading: VisibleControls.sanitize(reading), number: ruby))
            }
        }

        mutating func close(_ span: InlineSpan) {
            switch span {
            case .emphasis: emphasis -= 1
            case .strong: strong -= 1
            case .strikethrough: strikethrough -= 1
            case .spoiler: _ = spoilers.popLast()
            case .link: _ = links.popLast()
            case .ruby: _ = rubies.popLast()
            }
        }

        func style(base: MarkupStyle) -> MarkupStyle {
            var style = base
            style.emphasis = emphasis > 0
            style.strong = strong > 0
            style.strikethrough = strikethrough > 0
            style.spoiler = spoilers.last
            style.link = links.last
            style.ruby = rubies.last
            return style
        }
    }
}
