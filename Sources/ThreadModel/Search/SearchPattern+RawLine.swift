/// The raw line's verdict: the canonical comment line (`ThreadRecordEncoder`'s shape and no
/// other) is walked field by field, its body unescaped and folded as it goes, so the body
/// compared is the very string the decoder would give. Anything else is `.undecided`: a line
/// this cannot read exactly is decoded, so a match is never missed.
extension SearchPattern {
    private static let beforeID = Array(#"{"type":"comment","id":""#.utf8)
    private static let beforeAuthor = Array(#","author":""#.utf8)
    private static let beforeCreated = Array(#","created":""#.utf8)
    private static let beforeBody = Array(#","body":""#.utf8)
    private static let beforeEdited = Array(#","edited":""#.utf8)

    /// Whether the comment on a raw line (without its newline) matches.
    public func verdict(line: UnsafeRawBufferPointer) -> SearchVerdict {
        guard !needle.isEmpty else { return .no }
        var reader = RawLineReader(line)
        guard reader.take(Self.beforeID), reader.skipString(),
              reader.take(Self.beforeAuthor) else { return .undecided }
        let authorStart = reader.at
        guard reader.skipString() else { return .undecided }
        let author = authorStart..<(reader.at - 1)
        guard reader.take(Self.beforeCreated), reader.skipString(), reader.take(Self.beforeBody) else { return .undecided }
        foldedBody.removeAll()
        guard reader.foldString(into: foldedBody, folding) else { return .undecided }
        // After the body: the end, or the time of an edit and then the end.
        if !reader.take([UInt8(ascii: "}")]) {
            guard reader.take(Self.beforeEdited), reader.skipString(), reader.take([UInt8(ascii: "}")]) else { return .undecided }
        }
        guard reader.isAtEnd else { return .undecided }
        if foldedBody.contains(needle) { return .yes }
        guard !authors.isEmpty else { return .no }
        let authorBytes = line[author]
        // An id written with escapes or bytes above ASCII may decode to another string.
        guard !authorBytes.contains(where: { $0 == UInt8(ascii: "\\") || $0 >= 0x80 }) else { return .undecided }
        return self.authorBytes.contains(Array(authorBytes)) ? .yes : .no
    }
}

/// A cursor over a raw line's bytes.
private struct RawLineReader {
    let bytes: UnsafeRawBufferPointer
    var at = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isAtEnd: Bool { at == bytes.count }

    /// Takes `literal` if the line goes on with it.
    mutating func take(_ literal: [UInt8]) -> Bool {
        guard bytes.count - at >= literal.count else { return false }
        for (n, byte) in literal.enumerated() where bytes[at + n] != byte { return false }
        at += literal.count
        return true
    }

    /// Passes over a string's content and its closing quote; false at a control character
    /// (which JSON does not allow raw) or the end of the line.
    mutating func skipString() -> Bool {
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            if byte == UInt8(ascii: "\"") { return true }
            if byte < 0x20 { return false }
            if byte == UInt8(ascii: "\\") { at += 1 }
        }
        return false
    }

    /// Reads a string's content and its closing quote, appending it folded; false where the
    /// decoder might read it otherwise (see `SearchVerdict.undecided`).
    mutating func foldString(into out: FoldedText, _ folding: SearchFolding) -> Bool {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
        let end = bytes.count
        // Folding takes no more bytes than it reads, but for characters above ASCII (room made as they come).
        out.reserve(end - at)
        while at < end {
            let byte = base[at]
            at += 1
            // Most bytes: printable ASCII, neither a quote nor a backslash.
            if byte &- 0x20 < 0x60, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                out.appendReserved(SearchFolding.lowerASCII(byte))
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): return true
            case 0x00..<0x20: return false
            case UInt8(ascii: "\\"):
                guard let scalar = escape() else { return false }
                out.append(scalar.value < 0x80 ? [SearchFolding.lowerASCII(UInt8(scalar.value))] : folding.folded(scalar), reserving: end - at)
            default:
                guard let scalar = utf8(first: byte) else { return false }
                out.append(folding.folded(scalar), reserving: end - at)
            }
        }
        return false
    }

    /// The character an escape stands for (after its backslash); nil for an escape JSON does
    /// not have, a surrogate left alone, or U+0000.
    private mutating func escape() -> Unicode.Scalar? {
        guard at < bytes.count else { return nil }
        let letter = bytes[at]
        at += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(letter)
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "u"):
            guard let unit = hex4(), unit != 0 else { return nil }
            if unit < 0xD800 || unit > 0xDFFF { return Unicode.Scalar(unit) }
            // A high surrogate and its low one, written as two escapes.
            guard unit < 0xDC00, take(Array(#"\u"#.utf8)), let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
        default: return nil
        }
    }

    /// The four hex digits of a `\u` escape, taken.
    private mutating func hex4() -> UInt32? {
        guard let unit = UTF8Repair.hexUnit(bytes, at: at) else { return nil }
        at += 4
        return UInt32(unit)
    }

    /// A UTF-8 sequence from its first byte (already taken); nil unless it is well formed
    /// (shortest form, no surrogate, at most U+10FFFF), since the decoder repairs what is not.
    private mutating func utf8(first: UInt8) -> Unicode.Scalar? {
        let count: Int, minimum: UInt32
        var value: UInt32
        switch first {
        case 0xC2...0xDF: (count, minimum, value) = (1, 0x80, UInt32(first & 0x1F))
        case 0xE0...0xEF: (count, minimum, value) = (2, 0x800, UInt32(first & 0x0F))
        case 0xF0...0xF4: (count, minimum, value) = (3, 0x10000, UInt32(first & 0x07))
        default: return nil
        }
        guard bytes.count - at >= count else { return nil }
        for _ in 0..<count {
            let byte = bytes[at]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
            at += 1
        }
        guard value >= minimum else { return nil }
        return Unicode.Scalar(value)
    }
}
