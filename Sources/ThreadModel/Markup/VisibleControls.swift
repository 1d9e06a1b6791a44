/// Replaces control, bidi and invisible format characters in content with visible stand-ins.
///
/// The same placeholders as the client's cell buffer (C0 → U+2400 + code, DEL → ␡, C1 and
/// format characters → U+FFFD), applied to the attributed text itself so that nothing which
/// could reorder or hide text reaches a view, a copy or an export. `\n` and `\t` stay: they are
/// line breaks and tabs the layout handles. Joiners (ZWJ, ZWNJ) and tag characters stay only
/// where they build something: joiners after an emoji, or in a script that spells with joiners
/// (Indic, Arabic, Persian…); tags only in a tag flag (U+1F3F4 and tags: England's flag). After
/// a Latin letter, say, a joiner only hides, and tags after any other emoji spell hidden text:
/// both are shown as U+FFFD.
public enum VisibleControls {
    /// The text with every hostile scalar replaced; `afterBase` tells whether the text
    /// continues a character joiners may follow (for joiners at the start of a run).
    public static func sanitize(_ text: String, afterBase: Bool = false) -> String {
        // Printable ASCII, newlines and tabs (most text) are told by their bytes alone.
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A || $0 == 0x09 }
        }
        if plain ?? text.utf8.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A || $0 == 0x09 }) { return text }
        guard text.unicodeScalars.contains(where: { needsCheck($0) }) else { return text }
        var out = String.UnicodeScalarView()
        var context = Context(joins: afterBase)
        for scalar in text.unicodeScalars {
            let shown = placeholder(for: scalar, in: context) ?? scalar
            out.append(shown)
            context = context.after(shown)
        }
        return String(out)
    }

    /// What the scalars before one let it be, for a walk over text scalar by scalar.
    public struct Context: Equatable, Sendable {
        /// Whether joiners may follow (`joinState`).
        public var joins: Bool
        /// Whether tag characters may follow: the last base is U+1F3F4 (a black flag) and no
        /// joiner or cancel tag came after it.
        public var takesTags = false

        /// The context at the start of text; `joins` for text that continues a base joiners
        /// act on.
        public init(joins: Bool = false) { self.joins = joins }

        /// The context once `scalar` is shown (its placeholder, where it has one).
        public func after(_ scalar: Unicode.Scalar) -> Context {
            var next = Context(joins: joinState(joins, after: scalar))
            if scalar.value == 0x1F3F4 {
                next.takesTags = true
            } else if extendsBase(scalar) {
                // A joiner starts the next emoji's part, the cancel tag ends the tags.
                next.takesTags = takesTags && scalar.value != 0x200C && scalar.value != 0x200D && scalar.value != 0xE007F
            }
            return next
        }
    }

    /// Whether joiners may follow once `scalar` is shown, given whether they could before it:
    /// marks, selectors, skin tones, joiners and tags keep the base's answer; a new base gives its own.
    public static func joinState(_ joinable: Bool, after scalar: Unicode.Scalar) -> Bool {
        if scalar == "\n" || scalar == "\t" { return false }
        if extendsBase(scalar) { return joinable }
        return allowsJoiners(after: scalar)
    }

    /// Whether joiners may follow the text's last base character, `before` when it has none.
    public static func joinState(atEndOf text: String, before: Bool) -> Bool {
        // An ASCII character last is a base no joiner acts on (or a newline or tab).
        if let last = text.utf8.last, last < 0x80 { return false }
        for scalar in text.unicodeScalars.reversed() where !extendsBase(scalar) {
            return joinState(before, after: scalar)
        }
        return before
    }

    /// Whether a base character is one joiners act on: an emoji (ZWJ sequences) or a letter of a
    /// script whose spelling uses ZWJ and ZWNJ (half forms, Persian word parts).
    public static func allowsJoiners(after base: Unicode.Scalar) -> Bool {
        let v = base.value
        if v >= 0x2000, v != 0xFFFD, base.properties.isEmoji { return true }
        switch v {
        case 0x0600...0x08FF,    // Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic
             0x0900...0x0DFF,    // Devanagari to Sinhala
             0x0F00...0x0FFF,    // Tibetan
             0x1000...0x109F,    // Myanmar
             0x1780...0x18AF,    // Khmer, Mongolian
             0xA8E0...0xA8FF,    // Devanagari Extended
             0xA9E0...0xA9FF,    // Myanmar Extended-B
             0xFB50...0xFDFF, 0xFE70...0xFEFF,  // Arabic presentation forms
             0x11000...0x11FFF:  // Brahmi and the other historic Indic scripts
            return true
        default:
            return false
        }
    }

    /// Scalars that extend the character before them rather than start one.
    static func extendsBase(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200C, 0x200D, 0xFE00...0xFE0F, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F, 0xE0100...0xE01EF: return true
        default: break
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// The stand-in for one scalar, or nil when it may be shown as it is; `hasBase` tells
    /// whether a joiner here follows a character joiners act on (`joinState`). Tag characters
    /// always get one here: `placeholder(for:in:)` knows where they make a flag.
    public static func placeholder(for scalar: Unicode.Scalar, hasBase: Bool) -> Unicode.Scalar? {
        placeholder(for: scalar, in: Context(joins: hasBase))
    }

    /// The stand-in for one scalar, or nil when it may be shown as it is in `context`.
    public static func placeholder(for scalar: Unicode.Scalar, in context: Context) -> Unicode.Scalar? {
        let v = scalar.value
        if v == 0x0A || v == 0x09 { return nil }
        if v < 0x20 { return Unicode.Scalar(0x2400 + v) }
        if v == 0x7F { return "\u{2421}" }
        if (0x80...0x9F).contains(v) { return "\u{FFFD}" }
        // Zero-width (non-)joiners and emoji tag characters only mean something inside a cluster.
        if v == 0x200C || v == 0x200D { return context.joins ? nil : "\u{FFFD}" }
        if (0xE0020...0xE007F).contains(v) { return context.takesTags ? nil : "\u{FFFD}" }
        switch scalar.properties.generalCategory {
        case .format, .lineSeparator, .paragraphSeparator, .surrogate:
            return "\u{FFFD}"
        default:
            return nil
        }
    }

    /// Cheap pre-test so that ordinary text is returned without copying.
    private static func needsCheck(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x20 { return v != 0x0A && v != 0x09 }
        if v < 0xAD { return v >= 0x7F }
        return scalar.properties.generalCategory.isInvisibleCandidate || (0xE0020...0xE007F).contains(v)
    }
}

private extension Unicode.GeneralCategory {
    var isInvisibleCandidate: Bool {
        switch self {
        case .format, .lineSeparator, .paragraphSeparator, .surrogate: return true
        default: return false
        }
    }
}
