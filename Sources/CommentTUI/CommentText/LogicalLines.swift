import Foundation
import ThreadModel

/// One cluster of laid-out text with its style, named by its index in the layout's
/// `TextStyleTable`: a `LayoutCell` with its cluster looked up, for code that reads a line's
/// text (the layout itself works on cells).
struct StyledCluster: Equatable, Sendable {
    let cluster: DisplayCluster
    /// The index of its style in the table of the line it is part of (`LogicalLine.styles`).
    let styleIndex: Int
    /// Read once here: the wrapper asks for every cluster, often more than once.
    let isSpace: Bool
    /// A later piece of one character shown as several clusters (a ZWJ sequence's components,
    /// a flag's letters, the padding after a stand-in): no row may break before it.
    let joinsPrevious: Bool

    /// `breaksAsSpace: false` makes a blank that rows neither break at nor drop (ruby padding).
    init(cluster: DisplayCluster, styleIndex: Int, joinsPrevious: Bool = false, breaksAsSpace: Bool = true) {
        self.cluster = cluster
        self.styleIndex = styleIndex
        self.joinsPrevious = joinsPrevious
        isSpace = breaksAsSpace && !joinsPrevious && cluster.text == " "
    }

    /// A cell with its cluster looked up in `table`.
    init(_ cell: LayoutCell, in table: DisplayClusterTable) {
        cluster = table[cell.code]
        styleIndex = cell.styleIndex
        isSpace = cell.isSpace
        joinsPrevious = cell.joinsPrevious
    }
}

/// A line of a comment before wrapping: its cells and the prefixes its rows start with.
struct LogicalLine {
    /// The styles its cells name, shared by every line of the text.
    let styles: TextStyleTable
    /// The clusters its cells name, shared by every line of the text.
    let clusterTable: DisplayClusterTable
    var cells: [LayoutCell] = []
    /// Quote bars and list marker on the first row.
    var firstPrefix: [LayoutCell] = []
    /// Quote bars and the marker's width in spaces on the rows wrapped after it.
    var restPrefix: [LayoutCell] = []
    /// The blank row before a block: bars of the quotes that go on across it.
    var separator: [LayoutCell] = []
    /// The first line of a block (paragraph, list item, code block).
    var startsBlock = true
    /// A list item right after an item of the same list: no blank line between them.
    var continuesList = false
    /// Code is wrapped at the width, not at spaces, and keeps every space.
    var isCode = false
    /// The next line handed over is more of this one (`LogicalLines.forEach` hands a long line
    /// over in pieces); only the first piece's prefixes and block flags count.
    var goesOn = false

    init(styles: TextStyleTable, clusterTable: DisplayClusterTable) {
        self.styles = styles
        self.clusterTable = clusterTable
    }

    /// Its cells with their clusters looked up (for code that reads its text).
    var clusters: [StyledCluster] { cells.map { StyledCluster($0, in: clusterTable) } }

    /// The style of one of its clusters.
    func style(of piece: StyledCluster) -> TextRunStyle { styles[piece.styleIndex] }
}

/// Splits parsed comment text into logical lines: one per block and hard line break.
enum LogicalLines {
    /// Quote bar drawn once per quote level.
    static let quoteBar = "│ "
    /// Code blocks are indented this much.
    static let codeIndent = "  "
    /// Columns between tab stops: a tab shows as blanks to the next one (the composer follows).
    static let tabWidth = 4

    static func split(_ text: AttributedString) -> [LogicalLine] { split(MarkupRuns(text)) }

    static func split(_ text: MarkupRuns) -> [LogicalLine] {
        var lines: [LogicalLine] = []
        forEach(in: text) { lines.append($0) }
        return lines
    }

    /// Clusters of a line handed over at once: a longer line goes in pieces (`goesOn`).
    static let pieceClusters = 8192
    /// Clusters a line starting with ASCII is given room for at first.
    static let reservedClusters = 256

    /// Hands each logical line to `body` as soon as it is complete, and a long one in pieces of
    /// about `pieceClusters`, so a long text's clusters are let go piece by piece once laid out
    /// (an 8 MB comment's clusters never all at once, even when it is one paragraph).
    static func forEach(in text: MarkupRuns, pieceClusters: Int = pieceClusters, _ body: (LogicalLine) -> Void) {
        var builder = Builder(pieceClusters: max(1, pieceClusters), styles: TextStyleTable(), clusterTable: DisplayClusterTable())
        func handOver() {
            guard !builder.lines.isEmpty else { return }
            builder.lines.forEach(body)
            builder.lines.removeAll(keepingCapacity: true)
        }
        // The text is walked as one native String: AttributedString's character view costs
        // several times more per character on Linux. Slicing an AttributedString rounds a run's
        // bounds down to character boundaries, so a character belongs to the run holding its
        // last scalar; that is kept here.
        let whole = text.text
        let utf8 = whole.utf8
        // An ASCII byte other than CR followed by ASCII (or the end) is a character by itself:
        // those skip grapheme breaking, which is most of the cost per character.
        let bytes = Array(utf8)
        var offset = 0
        for run in text.runs {
            let style = TextRunStyle(run.style)
            let block = run.style.block
            builder.closeLink(unless: style.link)
            // Read once per run: the clusters carry its index, not the style.
            builder.begin(style)
            while offset < bytes.count {
                let byte = bytes[offset]
                if byte < 0x80, byte != UInt8(ascii: "\r"), offset + 1 == bytes.count || bytes[offset + 1] < 0x80 {
                    guard offset + 1 <= run.end else { break }
                    if byte >= 0x20, byte < 0x7F {
                        // Printable ASCII, each byte a character: the span of them is added in one go.
                        var end = offset + 1
                        while end < run.end, bytes[end] >= 0x20, bytes[end] < 0x7F,
                              end + 1 == bytes.count || bytes[end + 1] < 0x80 { end += 1 }
                        offset = builder.add(printable: bytes, from: offset, to: end, block: block)
                        if !builder.lines.isEmpty { handOver() }
                        continue
                    }
                    builder.add(ascii: byte, block: block)
                    offset += 1
                    if byte == UInt8(ascii: "\n") || !builder.lines.isEmpty { handOver() }
                    continue
                }
                // `offset` is where a character starts: the slice starting there says so. Asked of
                // the whole string, an index made from a byte offset is first rounded down to a
                // character boundary, which counts every regional indicator before it: a run of
                // flags cost its length squared (issue 36).
                let rest = whole[utf8.index(utf8.startIndex, offsetBy: offset)...]
                let next = rest.index(after: rest.startIndex)
                let end = utf8.distance(from: utf8.startIndex, to: next)
                guard end <= run.end else { break }
                builder.add(rest[rest.startIndex], block: block)
                offset = end
                if !builder.lines.isEmpty { handOver() }
            }
            handOver()
        }
        builder.closeLink(unless: nil)
        builder.flush()
        handOver()
    }


    private struct Builder {
        /// A line this long (in clusters) goes to `lines` as a piece.
        let pieceClusters: Int
        /// The styles of the text's cells.
        let styles: TextStyleTable
        /// The clusters of the text's cells.
        let clusterTable: DisplayClusterTable
        /// Complete lines (and pieces) not handed over yet.
        var lines: [LogicalLine] = []
        /// Whether any line was completed (handed over or not).
        var hasLines = false
        var current: LogicalLine
        /// The run being added: its style's index, whether it is a link's text, its spoiler.
        var styleIndex = 0
        var isLink = false
        var spoiler: Int?
        var started = false
        var block: MarkupBlock?
        var previousBlock: MarkupBlock?
        var column = 0
        var openLink: String?
        var linkText = ""
        /// The spoiler the open link's text is in: its host is hidden with it.
        var linkSpoiler: Int?

        init(pieceClusters: Int, styles: TextStyleTable, clusterTable: DisplayClusterTable) {
            self.pieceClusters = pieceClusters
            self.styles = styles
            self.clusterTable = clusterTable
            current = LogicalLine(styles: styles, clusterTable: clusterTable)
        }

        /// The characters added next are in `style`.
        mutating func begin(_ style: TextRunStyle) {
            styleIndex = styles.index(of: style)
            isLink = style.link != nil
            spoiler = style.spoiler
        }

        /// Printable ASCII characters, `bytes[start..<end]`, as `add(ascii:)` takes them one by
        /// one; stops after a character that hands a piece over (so a long line's pieces go one
        /// at a time). Returns the offset reached.
        mutating func add(printable bytes: [UInt8], from start: Int, to end: Int, block: MarkupBlock?) -> Int {
            if !started, current.cells.capacity == 0 {
                // Room for the line at once, rather than grown by doubling: at most what is left
                // of the text, a short line's worth (lines are let go once laid out).
                current.cells.reserveCapacity(min(pieceClusters, LogicalLines.reservedClusters, bytes.count - start))
            }
            startIfNeeded(block)
            var offset = start
            while offset < end {
                current.cells.append(LayoutCell(ascii: bytes[offset], styleIndex: styleIndex))
                offset += 1
                if current.cells.count >= pieceClusters {
                    handOverPiece()
                    if !lines.isEmpty { break }
                }
            }
            column += offset - start
            if isLink {
                for byte in bytes[start..<offset] { linkText.unicodeScalars.append(Unicode.Scalar(byte)) }
                linkSpoiler = spoiler
            }
            return offset
        }

        /// An ASCII character, as `add(_:)` takes it, without making a Character of it.
        mutating func add(ascii byte: UInt8, block: MarkupBlock?) {
            guard byte >= 0x20, byte < 0x7F else { return add(Character(Unicode.Scalar(byte)), block: block) }
            startIfNeeded(block)
            if isLink {
                linkText.unicodeScalars.append(Unicode.Scalar(byte))
                linkSpoiler = spoiler
            }
            current.cells.append(LayoutCell(ascii: byte, styleIndex: styleIndex))
            column += 1
            if current.cells.count >= pieceClusters { handOverPiece() }
        }

        mutating func add(_ character: Character, block: MarkupBlock?) {
            if character == "\n" {
                // A newline outside any block separates blocks; inside one it breaks the line.
                if block == nil { endBlock() } else { breakLine(block) }
                return
            }
            startIfNeeded(block)
            if isLink {
                linkText.append(character)
                linkSpoiler = spoiler
            }
            if let ascii = character.asciiValue, ascii >= 0x20, ascii < 0x7F {
                current.cells.append(LayoutCell(ascii: ascii, styleIndex: styleIndex))
                column += 1
            } else if character == "\t" {
                appendTab()
            } else {
                for (n, cluster) in DisplayWidth.clusters(of: character).enumerated() {
                    current.cells.append(clusterTable.cell(cluster, styleIndex: styleIndex, joinsPrevious: n > 0))
                    column += cluster.width
                }
            }
            if current.cells.count >= pieceClusters { handOverPiece() }
        }

        /// The long line so far goes as a piece, its clusters let go here. Never inside a ruby
        /// annotation: its base is placed whole (`RubyPlacement`), so the piece waits for its end.
        mutating func handOverPiece() {
            guard let last = current.cells.last, styles[last.styleIndex].ruby == nil else { return }
            var piece = current
            piece.goesOn = true
            lines.append(piece)
            current.cells = []
            current.cells.reserveCapacity(pieceClusters)
        }

        mutating func startIfNeeded(_ block: MarkupBlock?) {
            guard !started else { return }
            started = true
            let isNewBlock = block != self.block
            self.block = block
            current.startsBlock = isNewBlock || !hasLines
            current.isCode = block.map { if case .codeBlock = $0.role { true } else { false } } ?? false
            if let block, case .listItem(_, _, let list) = block.role, isNewBlock,
               let previous = previousBlock, case .listItem(_, _, let previousList) = previous.role {
                current.continuesList = previousList == list && previous.quoteDepth == block.quoteDepth
            }
            (current.firstPrefix, current.restPrefix) = prefixes(block, firstLineOfBlock: isNewBlock)
            if let block, isNewBlock, block.continuedQuotes > 0 {
                let bars = String(repeating: quoteBar, count: block.continuedQuotes)
                current.separator = cells(String(bars.dropLast()), TextRunStyle(role: .quoteBar))
            }
            column = 0
        }

        func prefixes(_ block: MarkupBlock?, firstLineOfBlock: Bool) -> ([LayoutCell], [LayoutCell]) {
            guard let block else { return ([], []) }
            let bars = String(repeating: quoteBar, count: block.quoteDepth)
            var first = cells(bars, TextRunStyle(role: .quoteBar))
            var rest = first
            switch block.role {
            case .paragraph:
                break
            case .codeBlock:
                first += cells(codeIndent, .plain)
                rest += cells(codeIndent, .plain)
            case .listItem(let ordered, let number, _):
                let marker = ordered ? "\(number). " : "• "
                let pad = String(repeating: " ", count: DisplayWidth.width(of: marker))
                first += cells(firstLineOfBlock ? marker : pad, TextRunStyle(role: .listMarker))
                rest += cells(pad, .plain)
            case .heading(let level):
                // The level shows as the `#`s typed, dimmed; wrapped rows hang under the text.
                let marker = String(repeating: "#", count: level) + " "
                first += cells(firstLineOfBlock ? marker : String(repeating: " ", count: marker.count), TextRunStyle(role: .headingMarker))
                rest += cells(String(repeating: " ", count: marker.count), .plain)
            }
            return (first, rest)
        }

        func cells(_ text: String, _ style: TextRunStyle) -> [LayoutCell] {
            // Most lines have no prefix: their empty one takes no look-up.
            guard !text.isEmpty else { return [] }
            let index = styles.index(of: style)
            return DisplayWidth.clusters(of: text).map { clusterTable.cell($0, styleIndex: index) }
        }

        mutating func appendTab() {
            let spaces = LogicalLines.tabWidth - column % LogicalLines.tabWidth
            for _ in 0..<spaces {
                current.cells.append(LayoutCell(ascii: UInt8(ascii: " "), styleIndex: styleIndex))
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
                let host = cells(" (\(LinkHost.host(of: url)))", style)
                current.cells += host
                column += host.reduce(0) { $0 + $1.width }
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
            hasLines = true
            if let block { previousBlock = block }
            current = LogicalLine(styles: styles, clusterTable: clusterTable)
            started = false
        }
    }
}
