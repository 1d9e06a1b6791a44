/// A grid of cells that views draw into; the only thing a backend ever shows.
///
/// Text enters through `write`, which applies the width discipline, so every cell holds a
/// safe cluster and wide clusters always have their continuation cell beside them.
public struct CellBuffer: Equatable, Sendable {
    /// Width in columns.
    public let columns: Int
    /// Height in rows.
    public let rows: Int
    var cells: [Cell]

    /// A blank buffer of the given size.
    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        cells = Array(repeating: .blank, count: self.columns * self.rows)
    }

    /// The cell at a position.
    public subscript(column: Int, row: Int) -> Cell {
        precondition(contains(column: column, row: row), "cell (\(column), \(row)) outside \(columns)x\(rows)")
        return cells[row * columns + column]
    }

    /// Whether a position lies inside the buffer.
    public func contains(column: Int, row: Int) -> Bool {
        column >= 0 && column < columns && row >= 0 && row < rows
    }

    /// Writes text from a position, wrapping never, clipping at `limit` (default: the right edge).
    ///
    /// Returns the column after the last cell written. A wide cluster that would straddle the
    /// limit is replaced by blanks so that nothing is drawn past it.
    @discardableResult
    public mutating func write<S: StringProtocol>(_ text: S, column: Int, row: Int, style: CellStyle = .plain, limit: Int? = nil) -> Int {
        let end = min(limit ?? columns, columns)
        var x = column
        guard row >= 0, row < rows else { return x }
        // Rules and bars repeat one non-ASCII character: its clusters are worked out once.
        var last: (character: Character, clusters: [DisplayCluster])?
        for character in text {
            guard x < end else { break }
            if let ascii = character.asciiValue, ascii >= 0x20, ascii < 0x7F {
                if x >= 0 { set(Cell(ascii: ascii, style: style), column: x, row: row) }
                x += 1
                continue
            }
            let clusters: [DisplayCluster]
            if let last, last.character == character {
                clusters = last.clusters
            } else {
                clusters = DisplayWidth.clusters(of: character)
                last = (character, clusters)
            }
            for cluster in clusters {
                guard x < end else { break }
                x = put(cluster, column: x, row: row, style: style, limit: end)
            }
        }
        return x
    }

    /// Writes one character `count` times from a position (rules): the same as writing
    /// `String(repeating:count:)`, without walking the string's grapheme breaks.
    @discardableResult
    public mutating func write(repeating character: Character, count: Int, column: Int, row: Int, style: CellStyle = .plain, limit: Int? = nil) -> Int {
        let end = min(limit ?? columns, columns)
        let clusters = DisplayWidth.clusters(of: character)
        var x = column
        guard row >= 0, row < rows else { return x }
        for _ in 0..<max(0, count) {
            guard x < end else { break }
            for cluster in clusters {
                guard x < end else { break }
                x = put(cluster, column: x, row: row, style: style, limit: end)
            }
        }
        return x
    }

    /// Puts one safe cluster at a position; returns the column after it.
    @discardableResult
    public mutating func put(_ cluster: DisplayCluster, column x: Int, row: Int, style: CellStyle, limit: Int? = nil) -> Int {
        let end = min(limit ?? columns, columns)
        if x + cluster.width > end {
            // Does not fit: blank the rest rather than draw half a character.
            for c in max(0, x)..<max(max(0, x), end) { set(Cell(ascii: 0x20, style: style), column: c, row: row) }
            return end
        }
        if x >= 0 {
            set(Cell(trusted: cluster.text, width: UInt8(cluster.width), style: style), column: x, row: row)
            if cluster.width == 2 { set(.continuation(style: style), column: x + 1, row: row) }
        }
        return x + cluster.width
    }

    /// Fills a span of a row with blanks in a style.
    public mutating func fill(row: Int, from start: Int = 0, to end: Int? = nil, style: CellStyle = .plain) {
        guard row >= 0, row < rows else { return }
        let stop = min(end ?? columns, columns)
        var x = max(0, start)
        while x < stop {
            set(Cell(ascii: 0x20, style: style), column: x, row: row)
            x += 1
        }
    }

    /// Restyles a span of a row, keeping its text.
    public mutating func restyle(row: Int, from start: Int, to end: Int, _ change: (inout CellStyle) -> Void) {
        guard row >= 0, row < rows else { return }
        for x in max(0, start)..<max(max(0, start), min(end, columns)) {
            change(&cells[row * columns + x].style)
        }
    }

    /// Every cell's style passed through `change` (once per run of one style).
    public mutating func restyleAll(_ change: (CellStyle) -> CellStyle) {
        var last: (from: CellStyle, to: CellStyle)?
        for index in cells.indices {
            let style = cells[index].style
            if let last, last.from == style {
                cells[index].style = last.to
            } else {
                let changed = change(style)
                last = (style, changed)
                cells[index].style = changed
            }
        }
    }

    /// The text of a row as a terminal would show it (continuations skipped).
    public func line(_ row: Int) -> String {
        String(decoding: lineBytes(row), as: UTF8.self)
    }

    /// A row's UTF-8: appending a String per cell costs more than the rest of a render.
    private func lineBytes(_ row: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(columns)
        for cell in cells[row * columns..<(row + 1) * columns] where !cell.isContinuation { cell.appendUTF8(to: &bytes) }
        return bytes
    }

    /// Every row's text, for snapshot tests.
    public var lines: [String] { (0..<rows).map(line) }

    /// Every row's text with trailing blanks (characters that are exactly a space) removed.
    var trimmedLines: [String] {
        (0..<rows).map { row in
            var bytes = lineBytes(row)
            var end = bytes.count
            while end > 0, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
            // After ASCII each trailing space is a character of its own; after anything else a
            // (Prepend) character may join the space, so characters decide there.
            if end < bytes.count, end > 0, bytes[end - 1] >= 0x80 {
                var line = String(decoding: bytes, as: UTF8.self)
                while line.last == " " { line.removeLast() }
                return line
            }
            bytes.removeSubrange(end...)
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    // Keeps wide clusters whole: overwriting either half of one blanks the other half.
    private mutating func set(_ cell: Cell, column x: Int, row: Int) {
        guard x >= 0, x < columns else { return }
        let i = row * columns + x
        let old = cells[i]
        if old.isContinuation, x > 0, !cell.isContinuation {
            cells[i - 1] = Cell(ascii: 0x20, style: cells[i - 1].style)
        }
        if old.width == 2, x + 1 < columns, cell.width != 2 {
            cells[i + 1] = Cell(ascii: 0x20, style: cells[i + 1].style)
        }
        cells[i] = cell
    }

    /// Checks that every wide lead has its continuation and every continuation its lead.
    func _checkInvariants() {
        for row in 0..<rows {
            for x in 0..<columns {
                let cell = self[x, row]
                if cell.width == 2 {
                    precondition(x + 1 < columns && self[x + 1, row].isContinuation, "wide cell at (\(x), \(row)) lacks its continuation")
                }
                if cell.isContinuation {
                    precondition(x > 0 && self[x - 1, row].width == 2, "continuation at (\(x), \(row)) without a wide lead")
                }
                for scalar in cell.text.unicodeScalars {
                    precondition(DisplayWidth.placeholder(for: scalar, hasBase: true) == nil, "unsafe scalar U+\(String(scalar.value, radix: 16)) in a cell")
                }
            }
        }
    }
}
