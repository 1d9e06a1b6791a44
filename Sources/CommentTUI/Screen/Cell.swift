/// One column of the screen: a grapheme cluster that is safe to hand to ncurses, and its style.
///
/// A cluster two columns wide occupies its lead cell and a continuation cell to its right;
/// the continuation carries no text of its own.
///
/// The cluster's UTF-8 is kept inline, so a cell is plain data: frames of ten thousand cells
/// are copied, shifted and compared every 1/60 s without reference counting or string
/// comparison. A safe cluster (a spacing character and at most
/// `DisplayWidth.maxCombiningMarks` marks) is at most 20 bytes; 24 fit.
public struct Cell: Hashable, Sendable {
    private var utf8: CellText
    /// How the cell looks.
    public var style: CellStyle
    /// Columns the cluster takes: 1 or 2 for a lead cell, 0 for a continuation.
    public private(set) var width: UInt8

    /// A blank cell.
    public static let blank = Cell(ascii: 0x20, style: .plain)

    /// The cluster drawn here; empty for a continuation cell.
    public var text: String { utf8.string }

    /// Builds a cell from a cluster already made safe by `DisplayWidth`.
    init(trusted text: String, width: UInt8, style: CellStyle) {
        utf8 = CellText(text)
        self.width = width
        self.style = style
    }

    /// A cell holding one printable ASCII character.
    init(ascii: UInt8, style: CellStyle) {
        utf8 = CellText(ascii: ascii)
        width = 1
        self.style = style
    }

    /// The right half of a wide cluster.
    static func continuation(style: CellStyle) -> Cell {
        Cell(trusted: "", width: 0, style: style)
    }

    /// Whether this is the right half of a wide cluster.
    public var isContinuation: Bool { width == 0 }

    /// Whether the cell is a single space.
    var isSpace: Bool { utf8 == CellText(ascii: 0x20) }

    /// Appends the cluster's UTF-8 to `bytes` (a row's text without a String per cell).
    func appendUTF8(to bytes: inout [UInt8]) { utf8.appendBytes(to: &bytes) }

    /// Calls `body` with each Unicode scalar of the cluster, without building a string.
    public func forEachScalar(_ body: (Unicode.Scalar) -> Void) {
        utf8.forEachScalar(body)
    }

    /// The cluster's first scalar value (0 for a continuation), without a decoder.
    var firstScalarValue: UInt32 { utf8.firstScalarValue }
}

/// Up to 24 bytes of UTF-8 in three words, the length in the top byte of the last word
/// (so at most 23 bytes of text, still more than a safe cluster needs).
struct CellText: Hashable, Sendable {
    private var w0: UInt64 = 0
    private var w1: UInt64 = 0
    private var w2: UInt64 = 0

    private static let capacity = 23

    init(ascii: UInt8) {
        w0 = UInt64(ascii)
        w2 = 1 << 56
    }

    init(_ text: String) {
        // Most cells are one ASCII byte: no scalar walk for them (the same bits either way).
        if text.utf8.count == 1, let byte = text.utf8.first {
            w0 = UInt64(byte)
            w2 = 1 << 56
            return
        }
        var count = 0
        // Whole scalars only: a longer cluster (never made by `DisplayWidth`) loses its last marks.
        for scalar in text.unicodeScalars {
            let bytes = UTF8.encode(scalar)!
            guard count + bytes.count <= Self.capacity else { break }
            for byte in bytes { set(byte, at: count); count += 1 }
        }
        w2 |= UInt64(count) << 56
    }

    private var count: Int { Int(w2 >> 56) }

    private mutating func set(_ byte: UInt8, at i: Int) {
        let shift = UInt64((i % 8) * 8)
        switch i / 8 {
        case 0: w0 |= UInt64(byte) << shift
        case 1: w1 |= UInt64(byte) << shift
        default: w2 |= UInt64(byte) << shift
        }
    }

    private func byte(at i: Int) -> UInt8 {
        let shift = UInt64((i % 8) * 8)
        switch i / 8 {
        case 0: return UInt8(truncatingIfNeeded: w0 >> shift)
        case 1: return UInt8(truncatingIfNeeded: w1 >> shift)
        default: return UInt8(truncatingIfNeeded: w2 >> shift)
        }
    }

    var string: String {
        let n = count
        if n == 1 { return String(Character(Unicode.Scalar(byte(at: 0)))) }
        return String(unsafeUninitializedCapacity: n) { buffer in
            for i in 0..<n { buffer[i] = byte(at: i) }
            return n
        }
    }

    func appendBytes(to bytes: inout [UInt8]) {
        for i in 0..<count { bytes.append(byte(at: i)) }
    }

    var firstScalarValue: UInt32 {
        let n = count
        guard n > 0 else { return 0 }
        let lead = byte(at: 0)
        guard lead >= 0x80 else { return UInt32(lead) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        var value = UInt32(lead) & (0x7F >> length)
        for i in 1..<min(length, n) { value = value << 6 | UInt32(byte(at: i) & 0x3F) }
        return value
    }

    func forEachScalar(_ body: (Unicode.Scalar) -> Void) {
        let n = count
        if n == 1 { body(Unicode.Scalar(byte(at: 0))); return }
        var decoder = UTF8()
        var i = 0
        var iterator = AnyIterator<UInt8> {
            guard i < n else { return nil }
            defer { i += 1 }
            return byte(at: i)
        }
        while case .scalarValue(let scalar) = decoder.decode(&iterator) { body(scalar) }
    }
}
