/// Cutting text short to a number of columns, with `…` to say it was cut: the one place that does.
///
/// A cut falls between grapheme clusters, never inside one (a letter and its marks, a flag, a
/// family emoji stay whole or go whole), and text is measured as its cells will show it
/// (`DisplayWidth`: CJK takes two columns), so what is kept plus the `…` never passes the width.
/// Views that have parts to give up (the status bar, the header's author line) drop whole parts
/// first and cut with this only what is left.
enum TextFit {
    /// What ends cut text: one column.
    static let ellipsis: Character = "…"

    /// The start of `text` to show in `width` columns, and whether it was cut (then `…` goes after
    /// it, and it leaves the column for it); all of it when it fits, nothing when `width` < 1.
    static func kept<S: StringProtocol>(_ text: S, width: Int) -> (text: S.SubSequence, isCut: Bool) {
        guard width > 0 else { return (text[text.startIndex..<text.startIndex], !text.isEmpty) }
        var used = 0
        // Where the text ends if the next cluster has to be the `…`.
        var lastFitting = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            used += columns(of: text[index])
            if used > width { return (trimmingTrailingSpaces(text[text.startIndex..<lastFitting]), true) }
            if used <= width - 1 { lastFitting = next }
            index = next
        }
        return (text[...], false)
    }

    /// How many of `clusters` (laid-out cells) to show in `width` columns, by the rule `kept`
    /// follows for text: room for the `…` when cut, no space left before it.
    static func kept(_ clusters: [DisplayCluster], width: Int) -> (count: Int, isCut: Bool) {
        guard width > 0 else { return (0, !clusters.isEmpty) }
        var used = 0
        var lastFitting = 0
        for (n, cluster) in clusters.enumerated() {
            used += cluster.width
            if used > width {
                while lastFitting > 0, clusters[lastFitting - 1].text.allSatisfy(\.isWhitespace) { lastFitting -= 1 }
                return (lastFitting, true)
            }
            if used <= width - 1 { lastFitting = n + 1 }
        }
        return (clusters.count, false)
    }

    /// `text` whole when it fits in `width` columns, else its longest start that fits with `…` after it.
    static func cut<S: StringProtocol>(_ text: S, to width: Int) -> String {
        let (start, isCut) = kept(text, width: width)
        guard isCut else { return String(text) }
        return width > 0 ? String(start) + String(ellipsis) : ""
    }

    /// Whether `text` fits in `width` columns uncut.
    static func fits<S: StringProtocol>(_ text: S, in width: Int) -> Bool {
        DisplayWidth.width(of: text) <= width
    }

    /// A cut start ends in a letter, not in the space before the `…` (`word …` reads as a gap).
    private static func trimmingTrailingSpaces<T: StringProtocol>(_ text: T) -> T.SubSequence where T.SubSequence == T {
        var end = text.endIndex
        while end > text.startIndex, text[text.index(before: end)].isWhitespace { end = text.index(before: end) }
        return text[text.startIndex..<end]
    }

    /// Columns one grapheme cluster takes once made safe.
    private static func columns(of character: Character) -> Int {
        if let ascii = character.asciiValue, ascii >= 0x20, ascii < 0x7F { return 1 }
        return DisplayWidth.clusters(of: character).reduce(0) { $0 + $1.width }
    }
}

extension CellBuffer {
    /// Writes text from a position, cut with `…` (`TextFit`) when it would pass `limit`;
    /// returns the column after the last cell written.
    @discardableResult
    mutating func write<S: StringProtocol>(_ text: S, column: Int, row: Int, style: CellStyle = .plain, cuttingAt limit: Int) -> Int {
        write(TextFit.cut(text, to: min(limit, columns) - column), column: column, row: row, style: style, limit: limit)
    }
}
