/// A row of wrapped text: its safe clusters and their total width.
public struct WrappedRow: Equatable, Sendable {
    public var clusters: [DisplayCluster]
    public var width: Int { clusters.reduce(0) { $0 + $1.width } }
}

/// Plain word wrapping by display width (the Markdown layout replaces it for comment bodies).
public enum TextWrap {
    /// Columns between tab stops when tabs are expanded.
    public static let tabWidth = 4

    /// Wraps text at `width` columns: at spaces where possible, inside over-long words otherwise.
    /// A newline always starts a new row; tabs expand to the next tab stop.
    public static func rows<S: StringProtocol>(_ text: S, width: Int) -> [WrappedRow] {
        let width = max(1, width)
        var rows: [WrappedRow] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            rows += wrapLine(expandTabs(line), width: width)
        }
        return rows
    }

    static func expandTabs<S: StringProtocol>(_ line: S) -> String {
        guard line.contains("\t") else { return String(line) }
        var out = ""
        var column = 0
        for character in line {
            if character == "\t" {
                let spaces = tabWidth - column % tabWidth
                out += String(repeating: " ", count: spaces)
                column += spaces
            } else {
                out.append(character)
                column += DisplayWidth.width(of: String(character))
            }
        }
        return out
    }

    private static func wrapLine(_ line: String, width: Int) -> [WrappedRow] {
        var rows: [WrappedRow] = []
        var current: [DisplayCluster] = []
        var currentWidth = 0
        var word: [DisplayCluster] = []
        var wordWidth = 0

        func flushWord() {
            if currentWidth + wordWidth > width, !current.isEmpty {
                // Drop the space the row would end with, then start afresh.
                while current.last?.text == " " { currentWidth -= 1; current.removeLast() }
                rows.append(WrappedRow(clusters: current))
                current = []
                currentWidth = 0
            }
            for cluster in word {
                if currentWidth + cluster.width > width {
                    rows.append(WrappedRow(clusters: current))
                    current = []
                    currentWidth = 0
                }
                current.append(cluster)
                currentWidth += cluster.width
            }
            word = []
            wordWidth = 0
        }

        for cluster in DisplayWidth.clusters(of: line) {
            if cluster.text == " " {
                flushWord()
                if currentWidth < width, !current.isEmpty {
                    current.append(cluster)
                    currentWidth += 1
                }
            } else {
                word.append(cluster)
                wordWidth += cluster.width
                // CJK text has no spaces: let wide characters break anywhere.
                if cluster.width == 2 { flushWord() }
            }
        }
        flushWord()
        while current.last?.text == " " { current.removeLast() }
        rows.append(WrappedRow(clusters: current))
        return rows
    }
}
