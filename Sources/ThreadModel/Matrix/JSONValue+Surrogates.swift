import Foundation

extension JSONValue {
    /// `data` with each lone UTF-16 surrogate escape (`\ud800` without its low half, a `\udc00`
    /// without its high half) replaced by `\ufffd`, the replacement character.
    ///
    /// JSON allows such escapes and some servers pass them on from their senders, but Foundation's
    /// decoder refuses the string, so one event would make a whole sync unreadable. One pass
    /// looks at each `\u` followed by `d` or `D`; both escapes are six bytes, so a repair writes
    /// its four hex digits in place, on a copy made at the first one. `data` is returned as it
    /// is when there is none (the usual case).
    package static func replacingLoneSurrogates(in data: Data) -> Data {
        var repaired: Data?
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            let backslash = UInt8(ascii: "\\"), u = UInt8(ascii: "u"), lowD = UInt8(ascii: "d"), highD = UInt8(ascii: "D")
            /// The code unit of the escape `\uXXXX` at `start`, if there is one there.
            func escape(at start: Int) -> Int? {
                guard start + 6 <= bytes.count, bytes[start] == backslash, bytes[start + 1] == u else { return nil }
                var value = 0
                for byte in bytes[(start + 2)..<(start + 6)] {
                    guard let digit = hexDigit(byte) else { return nil }
                    value = value * 16 + digit
                }
                return value
            }
            var index = 0
            while index < bytes.count {
                guard bytes[index] == backslash else {
                    index += 1
                    continue
                }
                // Backslashes only occur in strings, each starting an escape of two bytes or
                // more: `\\` is skipped whole, so `\\ud800` stays text.
                guard index + 2 < bytes.count, bytes[index + 1] == u, bytes[index + 2] == lowD || bytes[index + 2] == highD,
                      let first = escape(at: index), (0xD800...0xDFFF).contains(first) else {
                    index += 2
                    continue
                }
                if first <= 0xDBFF, let second = escape(at: index + 6), (0xDC00...0xDFFF).contains(second) {
                    index += 12
                    continue
                }
                if repaired == nil { repaired = data }
                repaired!.withUnsafeMutableBytes { (copy: UnsafeMutableRawBufferPointer) in
                    for (offset, byte) in "fffd".utf8.enumerated() { copy[index + 2 + offset] = byte }
                }
                index += 6
            }
        }
        return repaired ?? data
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
