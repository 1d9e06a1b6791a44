import Foundation

extension JSONValue {
    /// `data` with each lone UTF-16 surrogate escape (`\ud800` without its low half, a `\udc00`
    /// without its high half) replaced by `\ufffd`, the replacement character.
    ///
    /// JSON allows such escapes and some servers pass them on from their senders, but Foundation's
    /// decoder refuses the string, so one event would make a whole sync unreadable. Both escapes
    /// are six bytes: the repair is in place, on a copy made only when there is one. `data` is
    /// returned as it is when there is none (the usual case: no `\uD…` escape at all is found
    /// by a fast search first).
    static func replacingLoneSurrogates(in data: Data) -> Data {
        guard data.range(of: Data(#"\ud"#.utf8)) != nil || data.range(of: Data(#"\uD"#.utf8)) != nil else { return data }
        let lone: [Int] = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> [Int] in
            let backslash = UInt8(ascii: "\\"), u = UInt8(ascii: "u")
            /// The code unit of the four hex digits at `start`, if they are four hex digits.
            func unit(at start: Int) -> Int? {
                guard start + 4 <= bytes.count else { return nil }
                var value = 0
                for byte in bytes[start..<(start + 4)] {
                    guard let digit = hexDigit(byte) else { return nil }
                    value = value * 16 + digit
                }
                return value
            }
            var found: [Int] = []
            var index = 0
            while index < bytes.count {
                guard bytes[index] == backslash else {
                    index += 1
                    continue
                }
                // Backslashes only occur in strings; `\\` is skipped whole, so `\\ud800` stays text.
                guard index + 1 < bytes.count, bytes[index + 1] == u, let first = unit(at: index + 2) else {
                    index += 2
                    continue
                }
                if (0xD800...0xDBFF).contains(first), index + 12 <= bytes.count, bytes[index + 6] == backslash, bytes[index + 7] == u,
                   let second = unit(at: index + 8), (0xDC00...0xDFFF).contains(second) {
                    index += 12
                    continue
                }
                if (0xD800...0xDFFF).contains(first) { found.append(index) }
                index += 6
            }
            return found
        }
        guard !lone.isEmpty else { return data }
        var repaired = data
        let replacement = Data(#"\ufffd"#.utf8)
        for offset in lone {
            let start = repaired.startIndex + offset
            repaired.replaceSubrange(start..<(start + 6), with: replacement)
        }
        return repaired
    }

    /// The value of an ASCII hex digit.
    private static func hexDigit(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }
}
