/// Makes a line decodable: invalid UTF-8 and lone surrogate escapes become U+FFFD, and raw
/// control characters inside strings become escapes.
///
/// Done before JSON decoding so that one bad character costs a character, never the record.
public enum UTF8Repair {
    /// The bytes as valid UTF-8 with every `\uD8xx`-style escape that is not half of a pair
    /// replaced by `\uFFFD`.
    public static func repair(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        let text: [UInt8]
        if String(validating: bytes, as: UTF8.self) != nil {
            text = Array(bytes)
        } else {
            text = Array(String(decoding: bytes, as: UTF8.self).utf8)
        }
        let escaped = text.contains { $0 < 0x20 } ? escapeRawControls(text) : text
        guard escaped.contains(UInt8(ascii: "\\")) else { return escaped }
        return repairSurrogateEscapes(escaped)
    }

    /// Control characters are not allowed raw in JSON strings; writers that forget to escape
    /// them should cost nothing, so they are escaped here (outside strings they stay as they are).
    private static func escapeRawControls(_ text: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count + 16)
        var inString = false
        var escaped = false
        let hex = Array("0123456789abcdef".utf8)
        for byte in text {
            if inString && byte < 0x20 {
                out += [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
                escaped = false
                continue
            }
            out.append(byte)
            if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = inString } else if byte == UInt8(ascii: "\"") { inString.toggle() }
        }
        return out
    }

    private static func repairSurrogateEscapes(_ text: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var i = 0
        while i < text.count {
            guard text[i] == UInt8(ascii: "\\"), i + 1 < text.count else {
                out.append(text[i]); i += 1; continue
            }
            guard text[i + 1] == UInt8(ascii: "u"), let unit = hexUnit(text, at: i + 2) else {
                // Any other escape (including `\\`) is copied whole so its second byte is not rescanned.
                out.append(text[i]); out.append(text[i + 1]); i += 2; continue
            }
            if (0xD800...0xDBFF).contains(unit), i + 12 <= text.count, text[i + 6] == UInt8(ascii: "\\"),
               text[i + 7] == UInt8(ascii: "u"), let low = hexUnit(text, at: i + 8), (0xDC00...0xDFFF).contains(low) {
                out.append(contentsOf: text[i..<(i + 12)]); i += 12
            } else if (0xD800...0xDFFF).contains(unit) {
                out.append(contentsOf: Array(#"\uFFFD"#.utf8)); i += 6
            } else {
                out.append(contentsOf: text[i..<(i + 6)]); i += 6
            }
        }
        return out
    }

    /// The four hex digits at an index as a UTF-16 code unit (a `\u` escape's; the raw search
    /// reads them too).
    static func hexUnit<Bytes: RandomAccessCollection>(_ text: Bytes, at index: Int) -> UInt16?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        guard index >= text.startIndex, index + 4 <= text.endIndex else { return nil }
        var value: UInt16 = 0
        for byte in text[index..<(index + 4)] {
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }
}
