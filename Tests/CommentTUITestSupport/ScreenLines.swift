import CommentTUI

/// A screen written down as lines a test can read and compare: each buffer row's text, then a
/// line of style letters under it, one letter per column.
///
/// The point is to check text and styles in one picture (ratatui's `Buffer::with_lines` with
/// its style spans side by side): a legend names each style a test cares about with a letter,
/// a plain cell is a space and a style missing from the legend is `?`. A row's text ends after
/// its last cell that is not a plain blank, its style letters after the last that is not plain,
/// so trailing plain space is never written out (an unstyled row has an empty style line).
///
/// ```
/// " @ann · t · idle ",   // row 0's text
/// "rrrrrrrrrrrrrrrrr",   // row 0's styles: every cell in the legend's `r`
/// ```
public struct ScreenLines: Equatable, CustomStringConvertible {
    /// One row of the screen.
    public struct Row: Equatable, Sendable {
        /// What the row shows (a wide character once, though it takes two columns).
        public var text: String
        /// A style letter per column; a wide character's two columns both carry its letter.
        public var styles: String

        /// A row from its text and style letters.
        public init(text: String, styles: String) {
            self.text = text
            self.styles = styles
        }
    }

    /// The rows, top to bottom.
    public var rows: [Row]

    /// The letter of the plain style.
    public static let plainLetter: Character = " "
    /// The letter of a style the legend does not name.
    public static let unnamedLetter: Character = "?"

    /// Reads a buffer, naming its styles with `legend` (letter → style).
    public init(_ buffer: CellBuffer, legend: [Character: CellStyle] = [:]) {
        // Ties (two letters for one style) go to the first letter, so a reading is stable;
        // `assertScreen` refuses such a legend before it gets here.
        var letters: [CellStyle: Character] = [:]
        for (letter, style) in legend.sorted(by: { $0.key < $1.key }) where letters[style] == nil {
            letters[style] = letter
        }
        rows = (0..<buffer.rows).map { row in
            let cells = (0..<buffer.columns).map { buffer[$0, row] }
            let kept = (cells.lastIndex { $0.text != " " || $0.style != .plain } ?? -1) + 1
            var text = "", styles = ""
            for cell in cells[..<kept] {
                if !cell.isContinuation { text += cell.text }
                styles.append(cell.style == .plain ? Self.plainLetter : letters[cell.style] ?? Self.unnamedLetter)
            }
            while styles.last == Self.plainLetter { styles.removeLast() }
            return Row(text: text, styles: styles)
        }
    }

    /// Expected rows from lines in pairs: a row's text, then its style letters.
    ///
    /// Trailing spaces of a style line mean plain cells and are ignored; an odd count of lines
    /// gives the last row no styles.
    public init(_ lines: [String]) {
        rows = stride(from: 0, to: lines.count, by: 2).map { i in
            var styles = i + 1 < lines.count ? lines[i + 1] : ""
            while styles.last == Self.plainLetter { styles.removeLast() }
            return Row(text: lines[i], styles: styles)
        }
    }

    /// The rows as lines in pairs (text, styles), the form `init(_ lines:)` takes.
    public var lines: [String] { rows.flatMap { [$0.text, $0.styles] } }

    /// The lines as Swift source, ready to paste into a test as the expected screen.
    public var description: String {
        lines.map { "    " + Self.quoted($0) + "," }.joined(separator: "\n")
    }

    /// What differs from `expected`, row by row, in words; nil when the screens are the same.
    public func difference(from expected: ScreenLines) -> String? {
        guard self != expected else { return nil }
        var report: [String] = []
        if rows.count != expected.rows.count {
            report.append("expected \(expected.rows.count) rows, the screen has \(rows.count)")
        }
        for index in 0..<max(rows.count, expected.rows.count) {
            let want = index < expected.rows.count ? expected.rows[index] : nil
            let have = index < rows.count ? rows[index] : nil
            guard want != have else { continue }
            let label = "row \(index)"
            let pad = String(repeating: " ", count: label.count)
            report.append("\(label) expected \(want.map { Self.quoted($0.text) } ?? "(none)")")
            report.append("\(pad)          \(want.map { Self.quoted($0.styles) } ?? "")")
            report.append("\(pad)   actual \(have.map { Self.quoted($0.text) } ?? "(none)")")
            report.append("\(pad)          \(have.map { Self.quoted($0.styles) } ?? "")")
            if let want, let have {
                report.append("\(pad)          " + Self.caret(under: want, have))
            }
        }
        return report.joined(separator: "\n")
    }

    /// A `^` under the first column where two rows differ (in text or style).
    private static func caret(under want: Row, _ have: Row) -> String {
        var column = zip(want.styles, have.styles).prefix { $0 == $1 }.count
        if want.styles.count != have.styles.count { column = min(column, min(want.styles.count, have.styles.count)) }
        // The text differs first when the columns its common prefix covers come earlier.
        let common = zip(want.text, have.text).prefix { $0 == $1 }.count
        if want.text != have.text {
            column = min(column, DisplayWidth.width(of: want.text.prefix(common)))
        }
        // One column for the opening quote.
        return String(repeating: " ", count: column + 1) + "^ column \(column)"
    }

    /// A line as a Swift string literal.
    static func quoted(_ line: String) -> String {
        var out = "\""
        for scalar in line.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
