import Foundation
import ThreadModel

/// One cluster of laid-out text with its style.
struct StyledCluster: Equatable, Sendable {
    var cluster: DisplayCluster
    var style: TextRunStyle
    var isSpace: Bool { cluster.text == " " }
}

/// A line of a comment before wrapping: its clusters and the prefixes its rows start with.
struct LogicalLine: Sendable {
    var clusters: [StyledCluster] = []
    /// Quote bars and list marker on the first row.
    var firstPrefix: [StyledCluster] = []
    /// Quote bars and the marker's width in spaces on the rows wrapped after it.
    var restPrefix: [StyledCluster] = []
    /// The first line of a block (paragraph, list item, code block).
    var startsBlock = true
    /// A list item right after an item of the same list: no blank line between them.
    var continuesList = false
    /// Code is wrapped at the width, not at spaces, and keeps every space.
    var isCode = false
}

/// Splits parsed comment text into logical lines: one per block and hard line break.
enum LogicalLines {
    /// Quote bar drawn once per quote level.
    static let quoteBar = "│ "
    /// Code blocks are indented this much.
    static let codeIndent = "  "

    static func split(_ text: AttributedString) -> [LogicalLine] {
        var builder = Builder()
        for run in text.runs {
            let style = TextRunStyle(run.attributes)
            let block = run.attributes[CommentAttributes.BlockAttribute.self]
            builder.closeLink(unless: style.link)
            for character in text[run.range].characters {
                if character == "\n" {
                    // A newline outside any block separates blocks; inside one it breaks the line.
                    if block == nil { builder.endBlock() } else { builder.breakLine(block) }
                    continue
                }
                builder.startIfNeeded(block)
                if style.link != nil {
                    builder.linkText.append(character)
                    builder.linkSpoiler = style.spoiler
                }
                if character == "\t" {
                    builder.appendTab(style)
                } else {
                    for cluster in DisplayWidth.clusters(of: character) {
                        builder.current.clusters.append(StyledCluster(cluster: cluster, style: style))
                        builder.column += cluster.width
                    }
                }
            }
        }
        builder.closeLink(unless: nil)
        builder.flush()
        return builder.lines
    }

    private struct Builder {
        var lines: [LogicalLine] = []
        var current = LogicalLine()
        var started = false
        var block: MarkupBlock?
        var previousBlock: MarkupBlock?
        var column = 0
        var openLink: String?
        var linkText = ""
        /// The spoiler the open link's text is in: its host is hidden with it.
        var linkSpoiler: Int?

        mutating func startIfNeeded(_ block: MarkupBlock?) {
            guard !started else { return }
            started = true
            let isNewBlock = block != self.block
            self.block = block
            current.startsBlock = isNewBlock || lines.isEmpty
            current.isCode = block.map { if case .codeBlock = $0.role { true } else { false } } ?? false
            if let block, case .listItem(_, _, let list) = block.role, isNewBlock,
               let previous = previousBlock, case .listItem(_, _, let previousList) = previous.role {
                current.continuesList = previousList == list && previous.quoteDepth == block.quoteDepth
            }
            (current.firstPrefix, current.restPrefix) = Self.prefixes(block, firstLineOfBlock: isNewBlock)
            column = 0
        }

        static func prefixes(_ block: MarkupBlock?, firstLineOfBlock: Bool) -> ([StyledCluster], [StyledCluster]) {
            guard let block else { return ([], []) }
            let bars = String(repeating: quoteBar, count: block.quoteDepth)
            var first = clusters(bars, TextRunStyle(role: .quoteBar))
            var rest = first
            switch block.role {
            case .paragraph:
                break
            case .codeBlock:
                first += clusters(codeIndent, .plain)
                rest += clusters(codeIndent, .plain)
            case .listItem(let ordered, let number, _):
                let marker = ordered ? "\(number). " : "• "
                let pad = String(repeating: " ", count: DisplayWidth.width(of: marker))
                first += clusters(firstLineOfBlock ? marker : pad, TextRunStyle(role: .listMarker))
                rest += clusters(pad, .plain)
            }
            return (first, rest)
        }

        static func clusters(_ text: String, _ style: TextRunStyle) -> [StyledCluster] {
            DisplayWidth.clusters(of: text).map { StyledCluster(cluster: $0, style: style) }
        }

        mutating func appendTab(_ style: TextRunStyle) {
            let spaces = TextWrap.tabWidth - column % TextWrap.tabWidth
            for _ in 0..<spaces {
                current.clusters.append(StyledCluster(cluster: DisplayCluster(text: " ", width: 1), style: style))
            }
            column += spaces
        }

        /// Ends a link whose run is over; a link whose text is not its URL gets ` (host)`.
        mutating func closeLink(unless next: String?) {
            guard openLink != next else { return }
            if let url = openLink, !LinkHost.textShowsTarget(linkText, url: url) {
                var style = TextRunStyle(role: .linkHost)
                // A host would give away a hidden spoiler's link: it is masked with it.
                style.spoiler = linkSpoiler
                let host = Self.clusters(" (\(LinkHost.host(of: url)))", style)
                current.clusters += host
                column += host.reduce(0) { $0 + $1.cluster.width }
            }
            openLink = next
            linkText = ""
            linkSpoiler = nil
        }

        mutating func breakLine(_ block: MarkupBlock?) {
            startIfNeeded(block)
            flush()
        }

        mutating func endBlock() {
            flush()
            previousBlock = block
            block = nil
        }

        mutating func flush() {
            guard started else { return }
            lines.append(current)
            if let block { previousBlock = block }
            current = LogicalLine()
            started = false
        }
    }
}
