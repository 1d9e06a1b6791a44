/// Rows of a cell buffer as text with ANSI SGR styles, for printing outside the client
/// (`comment-tui render`). The cells' text is already safe; only the styles add escapes.
extension CellBuffer {
    /// A row with its styles as SGR sequences, trailing blanks removed, ending in a reset.
    public func ansiLine(_ row: Int) -> String {
        var end = columns
        while end > 0, self[end - 1, row].text == " " || self[end - 1, row].text.isEmpty,
              self[end - 1, row].style.background == .default, !self[end - 1, row].style.attributes.contains(.reverse) {
            end -= 1
        }
        var out = ""
        var current = CellStyle.plain
        for x in 0..<end where !self[x, row].isContinuation {
            let cell = self[x, row]
            if cell.style != current {
                out += Self.sgr(cell.style)
                current = cell.style
            }
            out += cell.text
        }
        if current != .plain { out += "\u{1B}[0m" }
        return out
    }

    /// The SGR sequence that sets a style from scratch.
    static func sgr(_ style: CellStyle) -> String {
        var codes = ["0"]
        let a = style.attributes
        if a.contains(.bold) { codes.append("1") }
        if a.contains(.dim) { codes.append("2") }
        if a.contains(.italic) { codes.append("3") }
        if a.contains(.underline) { codes.append("4") }
        if a.contains(.reverse) { codes.append("7") }
        if case .palette(let n) = style.foreground { codes.append(n < 8 ? "\(30 + Int(n))" : "38;5;\(n)") }
        if case .palette(let n) = style.background { codes.append(n < 8 ? "\(40 + Int(n))" : "48;5;\(n)") }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}
