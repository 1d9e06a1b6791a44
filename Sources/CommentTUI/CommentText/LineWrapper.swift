/// Wraps one logical line into rows of runs at a width.
///
/// Greedy, by display width: a row breaks after the last space that fits, or between wide
/// (CJK) clusters, except before closing punctuation or after an opening bracket (`Kinsoku`:
/// the character before moves on with it); a word longer than the row is broken where the row
/// ends. Spaces at a soft break are dropped. Code keeps every space and breaks only where the
/// row ends. The pieces of one substituted character (`👨‍👩‍👧` as `👨👩👧`) stay on one row,
/// unless wider than a row, and so do a ruby annotation's base and reading; a row with bases
/// gets its reading row above it.
struct LineWrapper {
    /// The columns rows are wrapped in.
    let width: Int
    /// The styles the line's cells name (one table for all its pieces).
    private let styles: TextStyleTable
    /// The clusters the line's cells name (one table for all its pieces).
    private let clusterTable: DisplayClusterTable
    /// What starts each row after the first (quote bars, the list marker's width in spaces).
    private let restPrefix: [LayoutCell]
    /// The line is code: wrapped at the width, not at spaces, keeping every space. (Only the
    /// prefixes and this are kept of the line's first piece, not its clusters: a long line's
    /// pieces go in one at a time and are let go.)
    private let isCode: Bool
    /// Rows done, as lines (a ruby reading row above its bases' row), not taken yet.
    private var done: [TextLayout.Line] = []
    /// The readings of the annotations placed so far.
    private var ruby: RubyPlacement?
    /// How much of each annotation's reading the rows above showed, by annotation.
    private var consumed: [Int: Int] = [:]
    /// Columns left for text after the wider of the two prefixes.
    private let contentWidth: Int

    // The row being filled, and where it may break.
    private var row: [LayoutCell]
    private var rowWidth: Int
    private var contentStart: Int
    /// Index in `row` where it may break (what follows moves to the next row).
    private var breakAt: Int?
    /// The break before `breakAt`, where a row goes instead when closing punctuation follows
    /// `breakAt` right away.
    private var previousBreak: Int?
    /// Index in `row` of the first piece of the character being placed.
    private var characterStart: Int
    /// `breakAt` as it was before that character's pieces: no break falls between them.
    private var breakBeforeCharacter: Int?

    /// A wrapper for `paragraph`'s rows; its clusters, and those of the pieces after it, go in with `add`.
    init(width: Int, paragraph: LogicalLine) {
        self.width = width
        styles = paragraph.styles
        clusterTable = paragraph.clusterTable
        restPrefix = paragraph.restPrefix
        isCode = paragraph.isCode
        contentWidth = width - max(Self.width(of: paragraph.firstPrefix), Self.width(of: restPrefix))
        row = paragraph.firstPrefix
        // Room for a whole row (of a sane width: `PlainLayout` takes any): it then grows in place.
        row.reserveCapacity(Self.reserved(width) + 1)
        rowWidth = Self.width(of: row)
        contentStart = row.count
        characterStart = row.count
    }

    /// Places more of the line (a piece `LogicalLines` handed over: never one that ends inside
    /// a ruby annotation). Rows it completes wait in `takeLines()`; only the row being filled is
    /// kept, so a long line costs its rows, not its clusters.
    mutating func add(_ cells: [LayoutCell]) {
        guard styles.hasRuby, let placed = RubyPlacement(cells, styles: styles, clusterTable: clusterTable, contentWidth: contentWidth) else {
            for piece in cells { place(piece) }
            return
        }
        if ruby == nil { ruby = placed } else { ruby!.merge(placed) }
        for piece in placed.cells { place(piece) }
    }

    /// The rows completed so far, handed over.
    mutating func takeLines() -> [TextLayout.Line] {
        defer { done = [] }
        return done
    }

    /// The last row ends the line: the rows not taken yet.
    mutating func finish() -> [TextLayout.Line] {
        if !isCode { Self.trimTrailingSpaces(&row, from: contentStart) }
        complete(row)
        return takeLines()
    }

    private mutating func complete(_ row: [LayoutCell]) {
        if let ruby, let reading = ruby.readingLine(over: row, consumed: &consumed) { done.append(reading) }
        done.append(Self.runs(row, styles: styles, clusters: clusterTable))
    }

    private mutating func allowBreak(at index: Int) {
        guard breakAt != index else { return }
        previousBreak = breakAt
        breakAt = index
    }

    /// Cells a row is given room for at once: its width, up to a bound (wider rows grow).
    private static func reserved(_ width: Int) -> Int { min(width, 1024) }

    private mutating func newRow(carrying carried: [LayoutCell]) {
        complete(row)
        // The row is rebuilt in room for a whole one, not grown from the prefix's array.
        row = []
        row.reserveCapacity(max(Self.reserved(width) + 1, restPrefix.count + carried.count))
        row += restPrefix
        contentStart = row.count
        // A soft break drops the spaces it happens at.
        var carried = carried[...]
        if !isCode { while carried.first?.isSpace == true { carried = carried.dropFirst() } }
        row += carried
        rowWidth = Self.width(of: row)
        breakAt = nil
        previousBreak = nil
    }

    private mutating func place(_ piece: LayoutCell) {
        let w = piece.width
        if piece.joinsPrevious {
            // No break between the pieces of one character.
            breakAt = breakBeforeCharacter
            if rowWidth + w > width, characterStart > contentStart {
                // The whole character moves on, with the word it ends if that fits.
                var b = characterStart
                if !isCode, let wordStart = breakAt, wordStart > contentStart,
                   Self.width(of: restPrefix) + Self.width(of: Array(row[wordStart...])) + w <= width {
                    b = wordStart
                }
                let placed = row.count - characterStart
                let carried = Array(row[b...])
                row.removeSubrange(b...)
                Self.trimTrailingSpaces(&row, from: contentStart)
                newRow(carrying: carried)
                characterStart = row.count - placed
                breakBeforeCharacter = nil
            } else if rowWidth + w > width {
                // A character wider than a row: it breaks where the row ends after all.
                newRow(carrying: [])
            }
            row.append(piece)
            rowWidth += w
            if !isCode, w == 2 { allowBreak(at: row.count) }
            return
        }
        if !isCode, piece.isSpace {
            if rowWidth + 1 > width { newRow(carrying: []); return }
            characterStart = row.count
            breakBeforeCharacter = breakAt
            row.append(piece)
            rowWidth += 1
            allowBreak(at: row.count)
            return
        }
        if !isCode, breakAt == row.count, cannotStartRow(piece) {
            // Closing punctuation never starts a row: the break before it goes back one.
            breakAt = previousBreak
            previousBreak = nil
        }
        if !isCode, w == 2, row.count > contentStart, !cannotStartRow(piece),
           let last = row.last, !cannotEndRow(last) {
            allowBreak(at: row.count)
        }
        if rowWidth + w > width, row.count > contentStart {
            if let b = breakAt, b > contentStart, !isCode {
                let carried = Array(row[b...])
                row.removeSubrange(b...)
                Self.trimTrailingSpaces(&row, from: contentStart)
                newRow(carrying: carried)
            } else {
                var full = row
                row = []
                let carried = hardBreakCarry(before: piece, in: &full, contentStart: contentStart)
                row = full
                newRow(carrying: carried)
            }
            // A carried word can still be too long with this cluster: break it where the row ends.
            if rowWidth + w > width, row.count > contentStart { newRow(carrying: []) }
        }
        characterStart = row.count
        breakBeforeCharacter = breakAt
        row.append(piece)
        rowWidth += w
        // An opening bracket never ends a row.
        if !isCode, w == 2, !cannotEndRow(piece) { allowBreak(at: row.count) }
    }

    /// `Kinsoku.cannotStartRow` of a cell; printable ASCII is asked by its code, not its cluster.
    private func cannotStartRow(_ cell: LayoutCell) -> Bool {
        cell.code < 0x80 ? Kinsoku.cannotStartRow(scalar: UInt32(cell.code)) : Kinsoku.cannotStartRow(clusterTable[cell.code])
    }

    /// `Kinsoku.cannotEndRow` of a cell; printable ASCII is asked by its code, not its cluster.
    private func cannotEndRow(_ cell: LayoutCell) -> Bool {
        cell.code < 0x80 ? Kinsoku.cannotEndRow(scalar: UInt32(cell.code)) : Kinsoku.cannotEndRow(clusterTable[cell.code])
    }

    /// Where no break fits, the row ends where it is full; but closing punctuation takes the
    /// character before it along, and an opening bracket goes on with what follows, when that
    /// fits the next row (`differentl` / `y, nice`, not `differently` / `, nice`). Removes and
    /// returns what moves on.
    private func hardBreakCarry(before piece: LayoutCell, in row: inout [LayoutCell], contentStart: Int) -> [LayoutCell] {
        guard !isCode,
              let b = Kinsoku.rowBreak(before: clusterTable[piece.code], count: row.count, from: contentStart,
                                       cluster: { [clusterTable] in clusterTable[row[$0].code] }, joinsPrevious: { row[$0].joinsPrevious }),
              Self.width(of: restPrefix) + Self.width(of: Array(row[b...])) + piece.width <= width else { return [] }
        defer { row.removeSubrange(b...) }
        return Array(row[b...])
    }

    private static func trimTrailingSpaces(_ row: inout [LayoutCell], from start: Int) {
        while row.count > start, row.last?.isSpace == true { row.removeLast() }
    }

    static func width(of cells: [LayoutCell]) -> Int { cells.reduce(0) { $0 + $1.width } }

    /// Groups a row's cells (their styles in `styles`, their clusters in `clusters`) into runs of one style.
    static func runs(_ row: [LayoutCell], styles: TextStyleTable, clusters table: DisplayClusterTable) -> TextLayout.Line {
        grouped(row.count, styleIndex: { row[$0].styleIndex }, cluster: { table[row[$0].code] }, styles: styles)
    }

    /// Groups a row's clusters (their styles in `styles`) into runs of one style.
    static func runs(_ row: [StyledCluster], styles: TextStyleTable) -> TextLayout.Line {
        grouped(row.count, styleIndex: { row[$0].styleIndex }, cluster: { row[$0].cluster }, styles: styles)
    }

    /// The runs of `count` cells read through `styleIndex` and `cluster`: equal styles have
    /// equal indices, so a run ends where the index changes.
    @inline(__always)
    private static func grouped(_ count: Int, styleIndex: (Int) -> Int, cluster: (Int) -> DisplayCluster,
                                styles: TextStyleTable) -> TextLayout.Line {
        var line = TextLayout.Line()
        var column = 0
        var start = 0
        while start < count {
            let index = styleIndex(start)
            var end = start + 1
            while end < count, styleIndex(end) == index { end += 1 }
            var clusters: [DisplayCluster] = []
            clusters.reserveCapacity(end - start)
            var width = 0
            for n in start..<end {
                let shown = cluster(n)
                clusters.append(shown)
                width += shown.width
            }
            line.runs.append(TextLayout.Run(column: column, clusters: clusters, style: styles[index]))
            column += width
            start = end
        }
        return line
    }
}
