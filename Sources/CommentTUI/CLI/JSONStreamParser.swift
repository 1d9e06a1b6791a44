import Foundation

/// Parses JSON values written one after another (`gh --paginate` prints one array per page),
/// strictly: the whole text parses or the first problem comes back with its byte offset.
///
/// `JSONSerialization` says neither where nor why, and a splitter in front of it dropped a page
/// cut short without a word. Values come out as `JSONSerialization`'s would: `[String: Any]`,
/// `[Any]`, `String`, `Int` (a `Double` when fractional or too big), `Bool`, `NSNull`.
struct JSONStreamParser {
    /// Deeper nesting is refused rather than recursed into: the stack is finite.
    static let maximumDepth = 512

    private let bytes: [UInt8]
    private var offset = 0
    private var depth = 0
    /// Where the top-level value being read starts, for "ends before … is closed".
    private var valueStart = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Every top-level value with the offset where it starts; only whitespace may separate them.
    static func values(in bytes: [UInt8]) throws -> [(offset: Int, value: Any)] {
        var parser = JSONStreamParser(bytes)
        // A byte order mark that some editors write is no part of the text.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.offset = 3 }
        var values: [(offset: Int, value: Any)] = []
        while true {
            parser.skipWhitespace()
            if parser.offset == bytes.count { return values }
            parser.valueStart = parser.offset
            values.append((parser.offset, try parser.value()))
        }
    }

    private var byte: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipWhitespace() {
        while let byte, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
    }

    private mutating func value() throws -> Any {
        guard let byte else { throw endsEarly() }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case UInt8(ascii: "t"): try literal("true"); return true
        case UInt8(ascii: "f"): try literal("false"); return false
        case UInt8(ascii: "n"): try literal("null"); return NSNull()
        default: throw unexpected("where a value should start")
        }
    }

    private mutating func array() throws -> [Any] {
        try enter()
        var items: [Any] = []
        skipWhitespace()
        if byte == UInt8(ascii: "]") { offset += 1; depth -= 1; return items }
        while true {
            skipWhitespace()
            items.append(try value())
            skipWhitespace()
            switch byte {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "]"): offset += 1; depth -= 1; return items
            default: throw unexpected("after an array element (expected ',' or ']')")
            }
        }
    }

    private mutating func object() throws -> [String: Any] {
        try enter()
        var members: [String: Any] = [:]
        skipWhitespace()
        if byte == UInt8(ascii: "}") { offset += 1; depth -= 1; return members }
        while true {
            skipWhitespace()
            guard byte == UInt8(ascii: "\"") else { throw unexpected("where a member's name should start (expected '\"')") }
            let name = try string()
            skipWhitespace()
            guard byte == UInt8(ascii: ":") else { throw unexpected("after a member's name (expected ':')") }
            offset += 1
            skipWhitespace()
            members[name] = try value()
            skipWhitespace()
            switch byte {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "}"): offset += 1; depth -= 1; return members
            default: throw unexpected("after a member (expected ',' or '}')")
            }
        }
    }

    /// Steps into an array or object, refusing to nest deeper than `maximumDepth`.
    private mutating func enter() throws {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw JSONSyntaxError(offset: offset, "arrays and objects nested more than \(Self.maximumDepth) deep")
        }
        offset += 1
    }

    private mutating func string() throws -> String {
        offset += 1
        var text = ""
        var runStart = offset
        while true {
            guard let byte else { throw endsEarly() }
            switch byte {
            case UInt8(ascii: "\""):
                text += String(decoding: bytes[runStart..<offset], as: UTF8.self)
                offset += 1
                return text
            case UInt8(ascii: "\\"):
                text += String(decoding: bytes[runStart..<offset], as: UTF8.self)
                try escape(into: &text)
                runStart = offset
            case 0x00:
                throw JSONSyntaxError(offset: offset, "a NUL byte inside a string")
            case 0x01..<0x20:
                throw JSONSyntaxError(offset: offset, "a raw control character (\(Self.codePoint(UInt32(byte)))) inside a string; JSON needs it escaped")
            case 0x80...:
                offset += try utf8Length()
            default:
                offset += 1
            }
        }
    }

    /// Reads `\x` or `\uXXXX` (a surrogate pair as one character; a lone surrogate as U+FFFD).
    private mutating func escape(into text: inout String) throws {
        let start = offset
        offset += 1
        guard let byte else { throw endsEarly() }
        offset += 1
        switch byte {
        case UInt8(ascii: "\""): text += "\""
        case UInt8(ascii: "\\"): text += "\\"
        case UInt8(ascii: "/"): text += "/"
        case UInt8(ascii: "b"): text += "\u{08}"
        case UInt8(ascii: "f"): text += "\u{0C}"
        case UInt8(ascii: "n"): text += "\n"
        case UInt8(ascii: "r"): text += "\r"
        case UInt8(ascii: "t"): text += "\t"
        case UInt8(ascii: "u"):
            let unit = try hexQuad(escapeStart: start)
            if (0xD800..<0xDC00).contains(unit), bytes[offset...].starts(with: Array("\\u".utf8)) {
                let saved = offset
                offset += 2
                let low = try hexQuad(escapeStart: saved)
                if (0xDC00..<0xE000).contains(low) {
                    text.unicodeScalars.append(Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!)
                    return
                }
                offset = saved
            }
            text.unicodeScalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
        default:
            offset = start + 1
            throw unexpected("after '\\' in a string (not an escape)")
        }
    }

    private mutating func hexQuad(escapeStart: Int) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte else { throw endsEarly() }
            guard let digit = Self.hexDigit(byte) else { throw unexpected("in the \\u escape at byte offset \(escapeStart) (expected a hex digit)") }
            value = value << 4 | digit
            offset += 1
        }
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// The length of the well-formed UTF-8 sequence at `offset`, which starts with a byte ≥ 0x80.
    private func utf8Length() throws -> Int {
        let lead = bytes[offset]
        // The range the second byte must be in (overlongs and surrogates excluded), and the length.
        let (second, length): (ClosedRange<UInt8>, Int)
        switch lead {
        case 0xC2...0xDF: (second, length) = (0x80...0xBF, 2)
        case 0xE0: (second, length) = (0xA0...0xBF, 3)
        case 0xE1...0xEC, 0xEE...0xEF: (second, length) = (0x80...0xBF, 3)
        case 0xED: (second, length) = (0x80...0x9F, 3)
        case 0xF0: (second, length) = (0x90...0xBF, 4)
        case 0xF1...0xF3: (second, length) = (0x80...0xBF, 4)
        case 0xF4: (second, length) = (0x80...0x8F, 4)
        default: throw invalidUTF8(at: offset)
        }
        for index in 1..<length {
            guard offset + index < bytes.count else { throw endsEarly() }
            let byte = bytes[offset + index]
            guard index == 1 ? second.contains(byte) : (0x80...0xBF).contains(byte) else { throw invalidUTF8(at: offset) }
        }
        return length
    }

    private func invalidUTF8(at offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset, "invalid UTF-8 (byte 0x\(String(bytes[offset], radix: 16, uppercase: true)))")
    }

    private mutating func number() throws -> Any {
        let start = offset
        var isInteger = true
        if byte == UInt8(ascii: "-") { offset += 1 }
        if byte == UInt8(ascii: "0") {
            offset += 1
            if let byte, Self.isDigit(byte) { throw JSONSyntaxError(offset: start, "a number with a leading zero") }
        } else {
            try digits(in: start)
        }
        if byte == UInt8(ascii: ".") {
            isInteger = false
            offset += 1
            try digits(in: start)
        }
        if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            isInteger = false
            offset += 1
            if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") { offset += 1 }
            try digits(in: start)
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        if isInteger, let integer = Int(text) { return integer }
        guard let double = Double(text), double.isFinite else {
            let shown = text.count > 40 ? text.prefix(40) + "…" : Substring(text)
            throw JSONSyntaxError(offset: start, "the number \(shown) is out of range")
        }
        return double
    }

    /// One or more digits, the part of a number that must have some.
    private mutating func digits(in number: Int) throws {
        guard let first = byte else { throw endsEarly() }
        guard Self.isDigit(first) else { throw unexpected("in the number at byte offset \(number) (expected a digit)") }
        while let byte, Self.isDigit(byte) { offset += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private mutating func literal(_ word: String) throws {
        for expected in word.utf8 {
            guard let byte else { throw endsEarly() }
            guard byte == expected else { throw unexpected("in what should be '\(word)'") }
            offset += 1
        }
    }

    /// The text ends inside a value: what a truncated download or a full disk leaves.
    private func endsEarly() -> JSONSyntaxError {
        JSONSyntaxError(offset: bytes.count, "the text ends before the value that starts at byte offset \(valueStart) is complete: the file looks cut short")
    }

    /// The byte at `offset` is not what the grammar allows there; names it, or what is wrong with it.
    private func unexpected(_ context: String) -> JSONSyntaxError {
        guard let byte else { return endsEarly() }
        switch byte {
        case 0x00: return JSONSyntaxError(offset: offset, "a NUL byte \(context)")
        case 0x80...:
            guard let length = try? utf8Length() else { return invalidUTF8(at: offset) }
            let character = String(decoding: bytes[offset..<(offset + length)], as: UTF8.self)
            return JSONSyntaxError(offset: offset, "unexpected '\(character)' \(context)")
        case ..<0x20, 0x7F:
            return JSONSyntaxError(offset: offset, "unexpected control character \(Self.codePoint(UInt32(byte))) \(context)")
        default:
            return JSONSyntaxError(offset: offset, "unexpected '\(Character(Unicode.Scalar(byte)))' \(context)")
        }
    }

    private static func codePoint(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
