/// Replaces control, bidi and invisible format characters in content with visible stand-ins.
///
/// The same placeholders as the client's cell buffer (C0 → U+2400 + code, DEL → ␡, C1 and
/// format characters → U+FFFD), applied to the attributed text itself so that nothing which
/// could reorder or hide text reaches a view, a copy or an export. `\n` and `\t` stay: they are
/// line breaks and tabs the layout handles. Joiners (ZWJ, ZWNJ) and tag characters stay only
/// where they build something: after an emoji, or in a script that spells with joiners (Indic,
/// Arabic, Persian…); after a Latin letter, say, a joiner only hides, and is shown as U+FFFD.
public enum VisibleControls {
    /// The text with every hostile scalar replaced; `afterBase` tells whether the text
    /// continues a character joiners may follow (for joiners at the start of a run).
    public static func sanitize(_ text: String, afterBase: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { needsCheck($0) }) else { return text }
        var out = String.UnicodeScalarView()
        var joinable = afterBase
        for scalar in text.unicodeScalars {
            let shown = placeholder(for: scalar, hasBase: joinable) ?? scalar
            out.append(shown)
            joinable = joinState(joinable, after: shown)
        }
        return String(out)
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
    /// whether a joiner here follows a character joiners act on (`joinState`).
    public static func placeholder(for scalar: Unicode.Scalar, hasBase: Bool) -> Unicode.Scalar? {
        let v = scalar.value
        if v == 0x0A || v == 0x09 { return nil }
        if v < 0x20 { return Unicode.Scalar(0x2400 + v) }
        if v == 0x7F { return "\u{2421}" }
        if (0x80...0x9F).contains(v) { return "\u{FFFD}" }
        // Zero-width (non-)joiners and emoji tag characters only mean something inside a cluster.
        if v == 0x200C || v == 0x200D || (0xE0020...0xE007F).contains(v) {
            return hasBase ? nil : "\u{FFFD}"
        }
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
