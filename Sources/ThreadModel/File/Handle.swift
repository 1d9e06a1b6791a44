/// Rules for handles: `[A-Za-z0-9_.-]{1,39}`.
public enum Handle {
    /// Whether a handle is well-formed.
    public static func isValid(_ handle: String) -> Bool {
        let bytes = handle.utf8
        guard (1...39).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"): true
            default: false
            }
        }
    }
}
