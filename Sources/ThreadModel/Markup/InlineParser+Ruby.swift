import Foundation

/// `{base|reading}` ruby annotations.
///
/// The base is inline markup of its own (emphasis, mentions, links), parsed apart; the reading
/// is plain text after escapes and entities. Neither may hold a newline, a backtick (code wins:
/// no ruby is ever made of a code span's characters), an unescaped `{`, nor the other
/// boundary (`|` in the reading, `}` in the base), and neither may be blank, or the braces stay
/// text. Every look-ahead stops at the next `{`, so the scans of two braces never overlap and
/// the parser stays linear.
extension InlineParser {
    /// Parses an annotation at `position` (a `{`); false leaves the brace to be text.
    mutating func scanRuby() -> Bool {
        let baseStart = position + 1
        guard let bar = rubyBoundary(from: baseStart, at: "|"), bar > baseStart,
              let close = rubyBoundary(from: bar + 1, at: "}"), close > bar + 1 else { return false }
        let reading = unescape((bar + 1)..<close).trimmingCharacters(in: .whitespaces)
        guard !reading.isEmpty, !reading.unicodeScalars.contains("\n") else { return false }
        let baseText = String(String.UnicodeScalarView(scalars[baseStart..<bar]))
        let base = InlineParser.parse(baseText, handles: handles, references: references)
        guard Self.isShowableBase(base) else { return false }
        atoms.append(append(.ruby(base: base, reading: reading)))
        formedExtensionDelimiters += [position, bar, close]
        position = close + 1
        return true
    }

    /// Where the first unescaped `boundary` is, or nil when something that ends the annotation
    /// comes first.
    private func rubyBoundary(from start: Int, at boundary: Unicode.Scalar) -> Int? {
        var i = start
        while let c = scalar(at: i) {
            if c == boundary { return i }
            switch c {
            case "\\":
                if let next = scalar(at: i + 1), next.isASCIIPunctuation { i += 2; continue }
            case "\n", "{", "}", "|", "`":
                return nil
            default:
                break
            }
            i += 1
        }
        return nil
    }

    /// A base shows something and stays on one line (`&#10;` would break it).
    private static func isShowableBase(_ items: [InlineItem]) -> Bool {
        var visible = false
        for item in items {
            switch item {
            case .text(let text), .rawHTML(let text), .code(let text):
                if text.unicodeScalars.contains("\n") { return false }
                if text.contains(where: { !$0.isWhitespace }) { visible = true }
            case .mention: visible = true
            case .lineBreak: return false
            case .open, .close: break
            }
        }
        return visible
    }

    /// A base inside a link loses its own links and mentions: no links inside links.
    static func flattenedForLink(_ items: [InlineItem]) -> [InlineItem] {
        items.compactMap { item in
            switch item {
            case .mention(let handle, _): return .text("@" + handle)
            case .open(.link), .close(.link): return nil
            default: return item
            }
        }
    }
}
