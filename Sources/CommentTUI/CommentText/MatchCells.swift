import ThreadModel

/// Where a search's query shows in laid-out text: the cells to mark, as column ranges by line.
///
/// Only the text is searched: not quote bars, list markers, a link's host, the expand markers
/// or ruby readings, and a spoiler not revealed breaks the text (what it hides is not marked,
/// nor does a match run through it). A match may run from one line into the next: lines are
/// joined once with a space (the one a wrap at a space leaves out) and once without (a word
/// broken, CJK broken between characters), and what either finds is marked.
enum MatchCells {
    /// Column ranges by line (indices into `lines`) where `pattern` is found in `lines[range]`.
    static func find(_ pattern: SearchPattern, in lines: [TextLayout.Line], range: Range<Int>,
                     revealed: Set<Int>) -> [Int: [Range<Int>]] {
        var pieces: [Piece] = []
        for number in range where !lines[number].isRubyReading {
            var piece = Piece(line: number)
            for run in lines[number].runs {
                let hidden = run.style.spoiler.map { !revealed.contains($0) } ?? false
                guard run.style.role == .text, !hidden else {
                    piece.breakText()
                    continue
                }
                var column = run.column
                for cluster in run.clusters {
                    piece.append(cluster, column: column, pattern)
                    column += cluster.width
                }
            }
            pieces.append(piece)
        }
        var marked: [Int: Set<Int>] = [:]
        for joiner in [[UInt8(ascii: " ")], []] {
            var folded: [UInt8] = [], cells: [Cell?] = []
            for (n, piece) in pieces.enumerated() {
                if n > 0 {
                    folded += joiner
                    cells += joiner.map { _ in nil }
                }
                folded += piece.folded
                cells += piece.cells
            }
            for start in pattern.occurrences(in: folded) {
                for cell in cells[start..<(start + pattern.needle.count)].compactMap({ $0 }) {
                    marked[cell.line, default: []].formUnion(cell.column..<(cell.column + cell.width))
                }
            }
        }
        return marked.mapValues(ranges)
    }

    /// Column ranges where `pattern` is found in one piece of text drawn from column 0 (a
    /// header's name or handle).
    static func find(_ pattern: SearchPattern, in text: String) -> [Range<Int>] {
        let line = TextLayout.Line(runs: [TextLayout.Run(column: 0, clusters: DisplayWidth.clusters(of: text), style: TextRunStyle())])
        return find(pattern, in: [line], range: 0..<1, revealed: [])[0] ?? []
    }

    /// A cell and the line it is on.
    private struct Cell {
        var line: Int
        var column: Int
        var width: Int
    }

    /// One line's text, folded, with the cell each byte came from.
    private struct Piece {
        var line: Int
        var folded: [UInt8] = []
        var cells: [Cell?] = []

        init(line: Int) { self.line = line }

        mutating func append(_ cluster: DisplayCluster, column: Int, _ pattern: SearchPattern) {
            let before = folded.count
            pattern.fold(cluster.text, into: &folded)
            cells += repeatElement(Cell?.some(Cell(line: line, column: column, width: cluster.width)), count: folded.count - before)
        }

        /// A byte no UTF-8 text has, so no match runs across what is not text.
        mutating func breakText() {
            guard folded.last != 0xFF else { return }
            folded.append(0xFF)
            cells.append(nil)
        }
    }

    /// Sorted columns as the fewest ranges.
    private static func ranges(_ columns: Set<Int>) -> [Range<Int>] {
        var out: [Range<Int>] = []
        for column in columns.sorted() {
            if let last = out.last, last.upperBound == column {
                out[out.count - 1] = last.lowerBound..<(column + 1)
            } else {
                out.append(column..<(column + 1))
            }
        }
        return out
    }
}
