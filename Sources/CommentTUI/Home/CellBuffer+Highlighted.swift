extension CellBuffer {
    /// Writes a name with the parts a filter matched (offsets of Unicode scalars, as the mention
    /// ranker and `ThreadNameRanker` give them) underlined, cut with `…` (`TextFit`) where it
    /// would pass `end`; returns the column after it. Home, the switcher and the mention list
    /// draw their matches with it.
    @discardableResult
    mutating func write(_ text: String, highlighting ranges: [Range<Int>], column: Int, row: Int, style: CellStyle, end: Int) -> Int {
        let (kept, isCut) = TextFit.kept(text, width: end - column)
        let scalars = kept.unicodeScalars
        var x = column, at = 0
        func segment(_ range: Range<Int>, _ style: CellStyle) {
            guard !range.isEmpty else { return }
            let lower = scalars.index(scalars.startIndex, offsetBy: range.lowerBound)
            let upper = scalars.index(scalars.startIndex, offsetBy: range.upperBound)
            x = write(String(scalars[lower..<upper]), column: x, row: row, style: style, limit: end)
        }
        // A match that runs past the cut is underlined as far as it shows.
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where range.lowerBound >= at && range.lowerBound < scalars.count {
            let shown = range.lowerBound..<min(range.upperBound, scalars.count)
            segment(at..<shown.lowerBound, style)
            segment(shown, style.adding(.underline))
            at = shown.upperBound
        }
        segment(at..<scalars.count, style)
        if isCut { x = write(String(TextFit.ellipsis), column: x, row: row, style: style, limit: end) }
        return x
    }
}
