import ThreadModel

/// Text from files made safe to print on a terminal: controls are shown as escapes, never obeyed.
enum VisibleText {
    /// The text with C0/C1 controls, DEL, bidi controls, line separators and other invisible
    /// format characters (those the client shows as placeholders, `VisibleControls`) written as
    /// `\u{…}` (newline kept when `keepsNewlines`).
    static func escape(_ text: String, keepsNewlines: Bool = false) -> String {
        // Printable ASCII, the usual case, has nothing to escape.
        if text.utf8.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || ($0 == 0x0A && keepsNewlines) }) { return text }
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        var context = VisibleControls.Context()
        for scalar in text.unicodeScalars {
            let placeholder = VisibleControls.placeholder(for: scalar, in: context)
            context = context.after(placeholder ?? scalar)
            if scalar == "\n" && keepsNewlines {
                out.unicodeScalars.append(scalar)
            } else if scalar.value < 0x20 || placeholder != nil {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// How `escapingInvisibles` writes a character: as the format's own escape.
    enum Markup { case json, html }

    /// JSON or HTML text with the characters the client shows as placeholders written as the
    /// format's escapes, so that none reaches a terminal raw.
    ///
    /// JSON: from DEL up as `\uXXXX` (UTF-16 units), which decode to the same text (C0
    /// controls are the encoder's: JSON escapes them itself). HTML: C0 controls but `\n` and
    /// `\t`, DEL and the others from U+00A0 up as `&#xX;`, which decode to the same text; NUL
    /// and C1 as `&#xFFFD;`, the client's placeholder for them, because HTML decodes `&#x0;`
    /// to U+FFFD and `&#x80;`–`&#x9F;` to Windows-1252 characters. Such characters occur only
    /// inside JSON strings, and HTML takes a character reference in text and attribute values
    /// alike, so the markup stays as it was.
    static func escapingInvisibles(in text: String, as markup: Markup) -> String {
        let escapesC0 = markup == .html
        guard text.utf8.contains(where: { $0 >= 0x7F || (escapesC0 && $0 < 0x20 && $0 != 0x0A && $0 != 0x09) }) else { return text }
        var out = ""
        var context = VisibleControls.Context()
        for scalar in text.unicodeScalars {
            let hidden = scalar.value >= 0x7F || (escapesC0 && scalar.value < 0x20)
            let placeholder = hidden ? VisibleControls.placeholder(for: scalar, in: context) : nil
            context = context.after(placeholder ?? scalar)
            guard placeholder != nil else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch markup {
            case .json:
                UTF16.encode(scalar) { unit in
                    let hex = String(unit, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            case .html:
                let shown = scalar.value == 0 || (0x80...0x9F).contains(scalar.value) ? 0xFFFD : scalar.value
                out += "&#x" + String(shown, radix: 16, uppercase: true) + ";"
            }
        }
        return out
    }
}
