/// Text from files made safe to print on a terminal: controls are shown as escapes, never obeyed.
enum VisibleText {
    /// The text with C0/C1 controls, DEL, bidi controls and line separators written as `\u{…}`
    /// (newline kept when `keepsNewlines`).
    static func escape(_ text: String, keepsNewlines: Bool = false) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if scalar == "\n" && keepsNewlines {
                out.unicodeScalars.append(scalar)
            } else if isUnsafe(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }
}
