import Foundation
import ThreadModel

/// The draft wrapped into rows of styled cells, with the way back from a row and column to a
/// character offset (for Up/Down and clicks).
struct ComposerLayout {
    /// One drawn cluster and the character it belongs to.
    struct Cell {
        var cluster: DisplayCluster
        var style: CellStyle
        var offset: Int
    }

    /// The rows, each a run of cells no wider than the width.
    private(set) var rows: [[Cell]] = [[]]
    /// The character offset each row starts at.
    private(set) var rowStarts: [Int] = [0]
    /// The text width the rows were wrapped at.
    let width: Int
    /// Characters in the draft.
    let count: Int

    /// Wraps `styles` (one per Character of `characters`) at `width` columns; a newline ends a row.
    init(characters: AttributedString.CharacterView, styles: [ComposerStyling.CharacterStyle], selection: Range<Int>, width: Int) {
        self.width = max(1, width)
        count = styles.count
        var used = 0
        // Where the current row's last word starts (the cell after its last space): a row that
        // overflows breaks there, as the feed wraps, so a word or a mention is never split.
        var wordStart: Int?
        for (offset, character) in characters.enumerated() {
            if character == "\n" {
                rows.append([]); rowStarts.append(offset + 1); used = 0; wordStart = nil
                continue
            }
            var style = Self.cellStyle(styles[offset])
            if selection.contains(offset) { style.attributes.insert(.reverse) }
            let struck = styles[offset].run.strikethrough && !styles[offset].isMarker
            // A tab shows as blanks to the next stop, as the feed will show it once sent.
            let clusters = character == "\t"
                ? Array(repeating: DisplayCluster(text: " ", width: 1), count: LogicalLines.tabWidth - used % LogicalLines.tabWidth)
                : DisplayWidth.clusters(of: character)
            for cluster in clusters {
                if used + cluster.width > self.width, used > 0 {
                    let row = rows.count - 1
                    let start = wordStart.flatMap { $0 > 0 && $0 < rows[row].count && !character.isWhitespace ? $0 : nil }
                        ?? Kinsoku.rowBreak(before: cluster, count: rows[row].count, from: 0, cluster: { rows[row][$0].cluster },
                                            joinsPrevious: { rows[row][$0].offset == rows[row][$0 - 1].offset })
                    if let start {
                        let word = Array(rows[row][start...])
                        rows[row].removeSubrange(start...)
                        rows.append(word); rowStarts.append(word[0].offset)
                        used = word.reduce(0) { $0 + $1.cluster.width }
                    } else {
                        rows.append([]); rowStarts.append(offset); used = 0
                    }
                    wordStart = nil
                }
                let shown = struck ? CommentRenderer.struck(cluster) : cluster
                rows[rows.count - 1].append(Cell(cluster: shown, style: style, offset: offset))
                used += cluster.width
            }
            if character.isWhitespace { wordStart = rows[rows.count - 1].count }
        }
        // A cursor after a full last row starts a new one, as a terminal would put it.
        if used >= self.width { rows.append([]); rowStarts.append(count) }
    }

    /// The look of a character: markers dimmed, spoilers shown (it is the writer's own text) but marked.
    static func cellStyle(_ style: ComposerStyling.CharacterStyle) -> CellStyle {
        if style.isMarker { return Theme.dim }
        var run = style.run
        let spoiler = run.spoiler != nil
        run.spoiler = nil
        var cell = CommentRenderer().cellStyle(run)
        if spoiler { cell = cell.adding(Theme.composerSpoiler.attributes) }
        return cell
    }

    /// The row and column of the caret before the character at `offset`.
    func position(ofOffset offset: Int) -> (row: Int, column: Int) {
        let row = rowIndex(containing: offset)
        var column = 0
        for cell in rows[row] where cell.offset < offset { column += cell.cluster.width }
        return (row, column)
    }

    /// The character offset nearest to a row and column (clamped to the text).
    func offset(row: Int, column: Int) -> Int {
        let row = min(max(0, row), rows.count - 1)
        var x = 0
        for cell in rows[row] {
            if x + cell.cluster.width > column { return cell.offset }
            x += cell.cluster.width
        }
        guard row + 1 < rows.count else { return count }
        let next = rowStarts[row + 1]
        // Past a wrapped row's end: its last character; past a hard break: the newline.
        if let last = rows[row].last, last.offset + 1 == next { return last.offset }
        return next - 1
    }

    /// The row a caret at `offset` is drawn on.
    func rowIndex(containing offset: Int) -> Int {
        // The last row starting at or before the offset.
        var low = 0, high = rowStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if rowStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low
    }
}
