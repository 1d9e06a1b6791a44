import ThreadModel

/// A piece of text that is safe to put in one cell, with the columns it takes.
public struct DisplayCluster: Hashable, Sendable {
    /// The cluster handed to ncurses: a spacing character and at most four zero-width marks.
    public var text: String
    /// Columns it takes, as the layout and ncurses (the C library's `wcwidth`) both count them.
    public var width: Int
}

/// The width discipline: every grapheme cluster becomes clusters that the layout and ncurses
/// measure alike, and no control or invisible character survives as itself.
///
/// ncurses measures a cell by the C library's `wcwidth` of its first character. Terminals draw
/// emoji sequences (ZWJ, skin tones, VS16, flags) and emoji newer than the C library at widths
/// that disagree with that, which shifts every later cell of the row. So such clusters are
/// substituted: ZWJ sequences by their components, presentation selectors and modifiers dropped,
/// flags by their two letters, and characters the C library does not know by U+FFFD padded to
/// the width Unicode gives them, unless the terminal said it draws clusters of that shape whole
/// (`policy`).
/// A joiner anywhere else is dropped from the cell.
public enum DisplayWidth {
    /// Most zero-width marks kept on one base character (ncurses' `CCHARW_MAX` is 5 in all).
    static let maxCombiningMarks = 4

    /// The emoji clusters this terminal draws whole: set at start-up from the cache or the
    /// user's choice, else once the terminal's answers to the probe arrive (the app then lays
    /// its text out again); every shape substituted until then, and in tests unless one sets it.
    nonisolated(unsafe) public static var policy = GraphemePolicy.substitute

    /// The placeholder for invisible, bidirectional and C1 control characters.
    public static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// The safe display clusters for a piece of text.
    public static func clusters<S: StringProtocol>(of text: S) -> [DisplayCluster] {
        var out: [DisplayCluster] = []
        out.reserveCapacity(text.utf8.count)
        for character in text { append(character, to: &out) }
        return out
    }

    /// The safe display clusters for one grapheme cluster.
    public static func clusters(of character: Character) -> [DisplayCluster] {
        var out: [DisplayCluster] = []
        append(character, to: &out)
        return out
    }

    /// Columns a piece of text takes once made safe.
    public static func width<S: StringProtocol>(of text: S) -> Int {
        var total = 0
        for character in text {
            if let ascii = character.asciiValue, ascii >= 0x20, ascii < 0x7F { total += 1; continue }
            for cluster in clusters(of: character) { total += cluster.width }
        }
        return total
    }

    /// The C library's width of a scalar, in a UTF-8 locale.
    static func libcWidth(_ scalar: Unicode.Scalar) -> Int {
        CharacterWidth.libc(scalar)
    }

    private static func append(_ character: Character, to out: inout [DisplayCluster]) {
        if let ascii = character.asciiValue, ascii >= 0x20, ascii < 0x7F {
            out.append(DisplayCluster(text: String(character), width: 1))
            return
        }
        let scalars = Array(character.unicodeScalars)
        if hasStrayTags(scalars) {
            // Tags spelling hidden text are shown as placeholders, as in the parsed text.
            appendScalars(scalars, to: &out)
            return
        }
        if policy.drawsSomeWhole, character.utf8.count <= GraphemePolicy.maximumBytes,
           let shape = ClusterShape(scalars), policy.drawsWhole(shape) {
            // The terminal draws it whole, two columns wide (the backend writes it past ncurses).
            out.append(DisplayCluster(text: String(character), width: 2))
            return
        }
        if scalars.allSatisfy(isRegionalIndicator) {
            // A flag: terminals disagree on its width, its letters they do not.
            for scalar in scalars {
                let letter = Unicode.Scalar(scalar.value - 0x1F1E6 + 0x41)!
                out.append(DisplayCluster(text: String(Character(letter)), width: 1))
            }
            return
        }
        if scalars.contains(where: isEmojiSequenceMarker) || isPictographicJoin(scalars) {
            // An emoji sequence: show each joined component by its base character alone.
            var takeNext = true
            for scalar in scalars {
                if scalar.value == 0x200D { takeNext = true; continue }
                if takeNext, !isEmojiSequenceMarker(scalar) {
                    appendScalars([scalar], to: &out)
                    takeNext = false
                }
            }
            return
        }
        appendScalars(scalars, to: &out)
    }

    /// The generic rule: a spacing character opens a cell, zero-width marks join it.
    private static func appendScalars(_ scalars: [Unicode.Scalar], to out: inout [DisplayCluster]) {
        var current: (text: String, width: Int, marks: Int)? = nil
        // Whether a joiner here follows a character joiners act on (an emoji, an Indic letter…).
        var joinable = false
        func flush() {
            if let c = current { out.append(DisplayCluster(text: c.text, width: c.width)) }
            current = nil
        }
        for scalar in scalars {
            if let placeholder = placeholder(for: scalar, hasBase: current != nil && joinable) {
                flush()
                out.append(DisplayCluster(text: String(Character(placeholder)), width: 1))
                joinable = false
                continue
            }
            joinable = VisibleControls.joinState(joinable, after: scalar)
            if scalar.value == 0xFE0E || scalar.value == 0xFE0F { continue }
            // A joiner outside an emoji sequence (`a‍b`, `क्‍ष`) joins nothing a cell can show, and
            // terminals such as tmux merge the next character into its cell: it goes, as the
            // presentation selectors do (the text keeps it for copies and exports).
            if scalar.value == 0x200D { continue }
            let width = libcWidth(scalar)
            let unicodeWide = scalar.properties.isEmojiPresentation
            if width < 0 || (width == 1 && unicodeWide) {
                // Unknown to the C library, or newer emoji it thinks narrow: never send it.
                flush()
                out.append(DisplayCluster(text: String(Character(replacement)), width: 1))
                if unicodeWide || isWideByUnicode(scalar) {
                    out.append(DisplayCluster(text: " ", width: 1))
                }
                continue
            }
            if width == 0 {
                if current == nil {
                    // A mark with nothing to sit on: show it on a dotted circle, as fonts do.
                    current = ("\u{25CC}", 1, 0)
                }
                if current!.marks < maxCombiningMarks {
                    current!.text.unicodeScalars.append(scalar)
                    current!.marks += 1
                }
                continue
            }
            flush()
            current = (String(Character(scalar)), width, 0)
        }
        flush()
    }

    /// A visible stand-in for a control, bidi or invisible format character; nil for others.
    static func placeholder(for scalar: Unicode.Scalar, hasBase: Bool) -> Unicode.Scalar? {
        let v = scalar.value
        if v < 0x20 { return Unicode.Scalar(0x2400 + v) }          // ␀ … ␟
        if v == 0x7F { return "\u{2421}" }                           // ␡
        if (0x80...0x9F).contains(v) { return replacement }
        if v == 0x200C || v == 0x200D { return hasBase ? nil : replacement }  // joiners stay where they join
        switch scalar.properties.generalCategory {
        case .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned:
            return replacement
        default:
            return nil
        }
    }

    /// Whether tag characters stand outside a tag flag (U+1F3F4 and tags), where they spell
    /// hidden text (`VisibleControls`).
    private static func hasStrayTags(_ scalars: [Unicode.Scalar]) -> Bool {
        guard scalars.contains(where: { (0xE0020...0xE007F).contains($0.value) }) else { return false }
        var context = VisibleControls.Context()
        for scalar in scalars {
            if (0xE0020...0xE007F).contains(scalar.value), VisibleControls.placeholder(for: scalar, in: context) != nil { return true }
            context = context.after(scalar)
        }
        return false
    }

    static func isRegionalIndicator(_ s: Unicode.Scalar) -> Bool { (0x1F1E6...0x1F1FF).contains(s.value) }

    /// Scalars that only occur inside emoji sequences and change how terminals size them.
    static func isEmojiSequenceMarker(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0xFE0F, 0x20E3, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F: return true
        default: return false
        }
    }

    private static func isPictographicJoin(_ scalars: [Unicode.Scalar]) -> Bool {
        scalars.contains(where: { $0.value == 0x200D }) && scalars.contains(where: { $0.value >= 0x2000 && $0.properties.isEmoji })
    }

    /// East Asian Wide/Fullwidth blocks, for characters the C library has no width for.
    private static func isWideByUnicode(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
