/// Replaces control, bidi and invisible format characters in content with visible stand-ins.
///
/// The same placeholders as the client's cell buffer (C0 → U+2400 + code, DEL → ␡, C1 and
/// format characters → U+FFFD), applied to the attributed text itself so that nothing which
/// could reorder or hide text reaches a view, a copy or an export. `\n` and `\t` stay: they are
/// line breaks and tabs the layout handles. Joiners and tag characters stay when they follow a
/// visible character, because they build emoji and Indic clusters.
public enum VisibleControls {
    /// The text with every hostile scalar replaced; `afterBase` tells whether the text
    /// continues a visible character (for joiners at the start of a run).
    public static func sanitize(_ text: String, afterBase: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { needsCheck($0) }) else { return text }
        var out = String.UnicodeScalarView()
        var hasBase = afterBase
        for scalar in text.unicodeScalars {
            let replacement = placeholder(for: scalar, hasBase: hasBase)
            out.append(replacement ?? scalar)
            hasBase = replacement == nil && scalar != "\n" && scalar != "\t"
        }
        return String(out)
    }

    /// The stand-in for one scalar, or nil when it may be shown as it is.
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
