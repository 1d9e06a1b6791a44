import ThreadModel

/// The ruby annotations of one logical line: bases padded and bound together for wrapping, and
/// readings placed on a row above each wrapped row that holds a base.
///
/// A base narrower than its reading is padded on both sides, to at most a row's width, so the
/// reading fits centred over it; a reading wider than that is cut with `…`. Every cell of an
/// annotation after its first joins the one before, so the wrapper never breaks inside one
/// unless it is wider than a row; then the reading is cut where the base is, each row showing
/// the part over its own piece.
struct RubyPlacement {
    /// An annotation's reading: cells at columns counted from the annotation's first cell.
    private struct Reading {
        var cells: [(column: Int, cluster: DisplayCluster)]
        var style: TextRunStyle
    }

    /// The line's cells with each annotation padded and bound.
    private(set) var cells: [LayoutCell] = []
    private var readings: [Int: Reading] = [:]
    /// The styles the cells name; a base's link host is added to it with the annotation.
    private let styles: TextStyleTable
    /// The clusters the cells name.
    private let clusterTable: DisplayClusterTable

    /// Nil when the line has no annotation. `contentWidth` is the row's width after its prefix.
    init?(_ line: [LayoutCell], styles: TextStyleTable, clusterTable: DisplayClusterTable, contentWidth: Int) {
        self.styles = styles
        self.clusterTable = clusterTable
        var bounds: [Int: ClosedRange<Int>] = [:]
        for (i, piece) in line.enumerated() {
            guard let number = styles[piece.styleIndex].ruby?.number else { continue }
            bounds[number] = (bounds[number]?.lowerBound ?? i)...i
        }
        guard !bounds.isEmpty else { return nil }
        cells.reserveCapacity(line.count + 2 * bounds.count)
        var i = 0
        while i < line.count {
            guard let ruby = styles[line[i].styleIndex].ruby, let range = bounds[ruby.number], range.lowerBound == i else {
                cells.append(line[i])
                i += 1
                continue
            }
            place(ruby, base: line[range], contentWidth: max(1, contentWidth))
            i = range.upperBound + 1
        }
    }

    /// Takes the readings of the annotations another piece of the same line placed.
    mutating func merge(_ other: RubyPlacement) {
        readings.merge(other.readings) { _, later in later }
    }

    /// Appends one annotation's padded, bound base and records its reading.
    private mutating func place(_ ruby: RubyAnnotation, base: ArraySlice<LayoutCell>, contentWidth: Int) {
        // A link's ` (host)` inside a base belongs to the annotation too.
        let base = base.map { piece -> (LayoutCell, TextRunStyle) in
            var style = styles[piece.styleIndex]
            style.ruby = ruby
            return (piece, style)
        }
        let baseWidth = base.reduce(0) { $0 + $1.0.width }
        let reading = DisplayWidth.clusters(of: ruby.reading)
        let readingWidth = reading.reduce(0) { $0 + $1.width }
        let width = max(baseWidth, min(readingWidth, contentWidth))
        let left = (width - baseWidth) / 2
        let space = LayoutCell(ascii: UInt8(ascii: " "), styleIndex: 0)
        let pieces = Array(repeating: (space, base[0].1), count: left) + base
            + Array(repeating: (space, base[base.count - 1].1), count: width - baseWidth - left)
        for (n, (cell, style)) in pieces.enumerated() {
            cells.append(cell.styled(styles.index(of: style), joinsPrevious: n > 0, breaksAsSpace: false))
        }
        var style = TextRunStyle(role: .rubyReading)
        // A reading is hidden with its base's spoiler and opens its base's link.
        style.spoiler = base[0].1.spoiler
        style.link = base[0].1.link
        readings[ruby.number] = Reading(cells: Self.readingCells(reading, width: width), style: style)
    }

    /// The reading centred in `width` columns, or cut to end in `…` there.
    private static func readingCells(_ reading: [DisplayCluster], width: Int) -> [(column: Int, cluster: DisplayCluster)] {
        let total = reading.reduce(0) { $0 + $1.width }
        var column = total <= width ? (width - total) / 2 : 0
        let limit = total <= width ? width : width - 1
        var out: [(column: Int, cluster: DisplayCluster)] = []
        for cluster in reading {
            guard column + cluster.width <= limit else { break }
            out.append((column, cluster))
            column += cluster.width
        }
        if total > width { out.append((column, DisplayCluster(text: "…", width: 1))) }
        return out
    }

    /// The reading row over a wrapped row, or nil when the row holds no base. `consumed` keeps
    /// how much of each annotation earlier rows showed (one wider than a row is cut).
    func readingLine(over row: [LayoutCell], consumed: inout [Int: Int]) -> TextLayout.Line? {
        var runs: [TextLayout.Run] = []
        var column = 0
        var i = 0
        while i < row.count {
            guard let number = styles[row[i].styleIndex].ruby?.number, let reading = readings[number] else {
                column += row[i].width
                i += 1
                continue
            }
            let start = column
            while i < row.count, styles[row[i].styleIndex].ruby?.number == number {
                column += row[i].width
                i += 1
            }
            let from = consumed[number] ?? 0
            let to = from + column - start
            consumed[number] = to
            let shown = reading.cells.filter { $0.column >= from && $0.column + $0.cluster.width <= to }
            guard let first = shown.first else { continue }
            runs.append(TextLayout.Run(column: start + first.column - from, clusters: shown.map(\.cluster), style: reading.style))
        }
        guard !runs.isEmpty else { return nil }
        // The quote's bars go on beside the reading.
        let bars = row.prefix { styles[$0.styleIndex].role == .quoteBar }
        var line = bars.isEmpty ? TextLayout.Line() : LineWrapper.runs(Array(bars), styles: styles, clusters: clusterTable)
        line.runs += runs
        return line
    }
}
