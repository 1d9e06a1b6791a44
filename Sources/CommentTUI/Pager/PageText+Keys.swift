import Foundation

extension PageText {
    /// The F1 page: every line of the key map, the keys in a bold column of their own (as wide
    /// as the longest, up to half the width) and what they do beside them. Both columns wrap,
    /// so a narrow terminal shows every word, a few rows further down.
    static func keys(width: Int, lines help: [KeyHelp] = KeyMap.helpLines) -> PageText {
        let width = max(4, width)
        let keysWidth = min(help.map { DisplayWidth.width(of: $0.keys) }.max() ?? 0, max(4, (width - gap) / 2))
        let actionWidth = max(4, width - keysWidth - gap)
        var lines: [TextLayout.Line] = []
        for entry in help {
            var keys = wrapped(entry.keys, width: keysWidth)
            for n in keys.indices {
                for r in keys[n].runs.indices { keys[n].runs[r].style.strong = true }
            }
            let action = wrapped(entry.action, width: actionWidth)
            for row in 0..<max(keys.count, action.count) {
                var line = row < keys.count ? keys[row] : TextLayout.Line()
                if row < action.count {
                    line.runs += action[row].runs.map { run in
                        var run = run
                        run.column += keysWidth + gap
                        return run
                    }
                }
                lines.append(line)
            }
        }
        return PageText(width: width, lines: lines)
    }

    /// Blank columns between the keys and what they do.
    private static let gap = 2

    /// Plain text (no markup: keys are full of `*`, `_` and `$`) wrapped at spaces to `width`.
    private static func wrapped(_ text: String, width: Int) -> [TextLayout.Line] {
        TextLayout(AttributedString(text), width: width).lines
    }
}
