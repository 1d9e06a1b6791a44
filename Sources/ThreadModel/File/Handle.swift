/// Rules for handles: `[A-Za-z0-9_.-]{1,39}`.
public enum Handle {
    /// The longest handle, in characters (all ASCII).
    public static let maximumLength = 39

    /// Text with every character outside `[A-Za-z0-9_.-]` replaced by `_` (file names, handles
    /// derived from other names); not clipped to a length.
    public static func replacingInvalidCharacters(in text: String) -> String {
        String(text.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_.-".unicodeScalars.contains(scalar))
                ? Character(scalar) : "_"
        })
    }

    /// Whether a handle is well-formed.
    public static func isValid(_ handle: String) -> Bool {
        let bytes = handle.utf8
        guard (1...maximumLength).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"): true
            default: false
            }
        }
    }
}
