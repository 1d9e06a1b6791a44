/// The store's binary fields: big-endian integers and length-prefixed byte strings, written
/// into a growing array.
struct StoreByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func append(_ raw: [UInt8]) { bytes += raw }

    mutating func append(_ value: UInt8) { bytes.append(value) }

    mutating func append(_ value: UInt16) { append(UInt64(value), width: 2) }

    mutating func append(_ value: UInt32) { append(UInt64(value), width: 4) }

    mutating func append(_ value: UInt64) { append(value, width: 8) }

    /// A string with a 16-bit length (collection names, at most 255 bytes).
    mutating func appendShort(_ text: String) {
        let utf8 = Array(text.utf8)
        precondition(utf8.count <= Int(UInt16.max), "a short string is at most 65,535 bytes")
        append(UInt16(utf8.count))
        append(utf8)
    }

    /// A string with a 32-bit length (record ids: a room id or key from a server has no limit here).
    mutating func appendLong(_ text: String) { appendLong(Array(text.utf8)) }

    /// Bytes with a 32-bit length.
    mutating func appendLong(_ raw: [UInt8]) {
        append(UInt32(raw.count))
        append(raw)
    }

    private mutating func append(_ value: UInt64, width: Int) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}

/// Reads what `StoreByteWriter` wrote, checking every length against what is left, so a damaged
/// or hostile file ends in `StoreByteReader.Short` and never reads past its end or allocates
/// more than the file holds.
struct StoreByteReader {
    /// The bytes ended before a field did, or a field is not what it must be.
    struct Short: Error {}

    private let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], from offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// How many bytes are left.
    var remaining: Int { bytes.count - offset }

    mutating func take(_ count: Int) throws -> [UInt8] {
        guard count >= 0, count <= remaining else { throw Short() }
        defer { offset += count }
        return Array(bytes[offset ..< offset + count])
    }

    mutating func byte() throws -> UInt8 { try take(1)[0] }

    mutating func uint16() throws -> UInt16 { UInt16(try integer(2)) }

    mutating func uint32() throws -> UInt32 { UInt32(try integer(4)) }

    mutating func uint64() throws -> UInt64 { try integer(8) }

    /// A string written by `appendShort`; throws when it is not UTF-8.
    mutating func short() throws -> String {
        let raw = try take(Int(try uint16()))
        guard let text = String(validating: raw, as: UTF8.self) else { throw Short() }
        return text
    }

    /// A string written by `appendLong(_: String)`; throws when it is not UTF-8.
    mutating func longText() throws -> String {
        guard let text = String(validating: try long(), as: UTF8.self) else { throw Short() }
        return text
    }

    /// Bytes written by `appendLong`.
    mutating func long() throws -> [UInt8] { try take(Int(try uint32())) }

    private mutating func integer(_ width: Int) throws -> UInt64 {
        try take(width).reduce(0) { $0 << 8 | UInt64($1) }
    }
}
