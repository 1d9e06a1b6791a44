/// Matrix's base64: the standard alphabet without `=` padding (Appendices, "Unpadded Base64").
/// Decoding reads padded input too, as the spec asks, and looks at every character the same
/// way whatever its value, with no table indexed by a secret: keys and recovery material pass
/// through here.
public enum UnpaddedBase64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The unpadded base64 text of `bytes`.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= bytes.count {
            let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int(n >> UInt32(shift) & 63)]) }
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            var n = UInt32(bytes[index]) << 16
            if rest == 2 { n |= UInt32(bytes[index + 1]) << 8 }
            for shift in [18, 12, 6, 0].prefix(rest + 1) { out.append(alphabet[Int(n >> UInt32(shift) & 63)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of base64 `text` (padding optional); nil when it is not base64 or has a length
    /// no encoding has. Bits left over at the end are ignored, not refused: the spec's own
    /// signing example key ends in them, and libolm and vodozemac read them the same way.
    public static func decode(_ text: String) -> [UInt8]? {
        var characters = Array(text.utf8)
        // Padding is public (it says only the length): one or two `=` ending a multiple of four.
        if characters.count % 4 == 0, characters.last == UInt8(ascii: "=") {
            characters.removeLast()
            if characters.last == UInt8(ascii: "=") { characters.removeLast() }
        }
        guard characters.count % 4 != 1 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(characters.count * 3 / 4)
        var invalid: Int32 = 0
        var accumulator: UInt32 = 0
        var bits = 0
        for character in characters {
            let value = sextet(character)
            invalid |= value  // negative (all high bits) for a character outside the alphabet
            accumulator = accumulator << 6 | UInt32(truncatingIfNeeded: value & 63)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        guard invalid >= 0 else { return nil }
        return out
    }

    /// A character's value 0–63, or -1, computed with masks rather than branches or a lookup.
    private static func sextet(_ character: UInt8) -> Int32 {
        let c = Int32(character)
        var value: Int32 = -1
        value += ((0x40 - c) & (c - 0x5b)) >> 8 & (c - 64)  // A–Z: 0–25, plus the 1 taken above
        value += ((0x60 - c) & (c - 0x7b)) >> 8 & (c - 70)  // a–z: 26–51
        value += ((0x2f - c) & (c - 0x3a)) >> 8 & (c + 5)   // 0–9: 52–61
        value += ((0x2a - c) & (c - 0x2c)) >> 8 & 63        // +: 62
        value += ((0x2e - c) & (c - 0x30)) >> 8 & 64        // /: 63
        return value
    }
}
