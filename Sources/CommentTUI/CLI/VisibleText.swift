import ThreadModel

/// Text from files made safe to print on a terminal: controls are shown as escapes, never obeyed.
enum VisibleText {
    /// The text with C0/C1 controls, DEL, bidi controls, line separators and other invisible
    /// format characters (those the client shows as placeholders, `VisibleControls`) written as
    /// `\u{…}` (newline kept when `keepsNewlines`).
    static func escape(_ text: String, keepsNewlines: Bool = false) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        var joinable = false
        for scalar in text.unicodeScalars {
            let placeholder = VisibleControls.placeholder(for: scalar, hasBase: joinable)
            joinable = VisibleControls.joinState(joinable, after: placeholder ?? scalar)
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

    /// How `escapingInvisibles` writes a character: as the format's own escape, which readers
    /// of that format decode to the same text.
    enum Markup { case json, html }

    /// JSON or HTML text with the characters the client shows as placeholders from DEL up
    /// (C0 controls are the encoder's: JSON escapes them itself) written as `\uXXXX` (UTF-16
    /// units) or `&#xXXXX;`. Such characters occur only inside JSON strings, and HTML takes a
    /// character reference in text and attribute values alike, so the data means the same.
    static func escapingInvisibles(in text: String, as markup: Markup) -> String {
        guard text.utf8.contains(where: { $0 >= 0x7F }) else { return text }
        var out = ""
        var joinable = false
        for scalar in text.unicodeScalars {
            let placeholder = scalar.value < 0x7F ? nil : VisibleControls.placeholder(for: scalar, hasBase: joinable)
            joinable = VisibleControls.joinState(joinable, after: placeholder ?? scalar)
            guard placeholder != nil else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch markup {
            case .json:
                for unit in String(scalar).utf16 {
                    let hex = String(unit, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            case .html:
                out += "&#x" + String(scalar.value, radix: 16, uppercase: true) + ";"
            }
        }
        return out
    }
}
