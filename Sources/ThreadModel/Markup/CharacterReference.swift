/// Entity and numeric character references (`&amp;`, `&#35;`, `&#x22;`), per CommonMark.
enum CharacterReference {
    /// The text a reference at `start` (an `&`) stands for and its length in scalars, or nil.
    static func decode(_ s: [Unicode.Scalar], at start: Int) -> (String, Int)? {
        var i = start + 1
        guard i < s.count else { return nil }
        if s[i] == "#" {
            i += 1
            let hex = i < s.count && (s[i] == "x" || s[i] == "X")
            if hex { i += 1 }
            let digitsStart = i
            var value: UInt32 = 0
            while i < s.count, i - digitsStart < (hex ? 6 : 7), let d = digit(s[i], hex: hex) {
                value = value * (hex ? 16 : 10) + d
                i += 1
            }
            guard i > digitsStart, i < s.count, s[i] == ";" else { return nil }
            // Zero, surrogates and values beyond Unicode become the replacement character.
            let scalar = value == 0 ? nil : Unicode.Scalar(value)
            return (String(Character(scalar ?? "\u{FFFD}")), i + 1 - start)
        }
        let nameStart = i
        while i < s.count, i - nameStart <= 32, s[i].isASCIIAlphanumeric { i += 1 }
        guard i > nameStart, i < s.count, s[i] == ";" else { return nil }
        let name = String(String.UnicodeScalarView(s[nameStart..<i]))
        guard let text = HTMLEntityTable.characters[name] else { return nil }
        return (text, i + 1 - start)
    }

    private static func digit(_ c: Unicode.Scalar, hex: Bool) -> UInt32? {
        switch c.value {
        case 0x30...0x39: return c.value - 0x30
        case 0x41...0x46 where hex: return c.value - 0x41 + 10
        case 0x61...0x66 where hex: return c.value - 0x61 + 10
        default: return nil
        }
    }
}
