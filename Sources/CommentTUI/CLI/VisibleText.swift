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
}
