/// libolm's message framing: a version byte, then protobuf-like fields (a varint tag whose low
/// three bits say the kind, then a varint or a length and bytes). Fields we do not know are
/// skipped, as libolm does, so a newer sender's extra fields do not break us.
enum OlmWireFormat {
    /// The only version of Olm messages there is.
    static let version: UInt8 = 3

    /// The kind of a field, from its tag's low three bits.
    enum Field {
        case varint(UInt64)
        case bytes(ArraySlice<UInt8>)
    }

    // MARK: Writing

    /// `value` as a varint: seven bits a byte, low bits first, the high bit set on all but the last.
    static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }

    /// A varint field: its one-byte tag, then the value.
    static func appendVarintField(tag: UInt8, _ value: UInt64, to out: inout [UInt8]) {
        out.append(tag)
        appendVarint(value, to: &out)
    }

    /// A length-delimited field: its one-byte tag, the length, then the bytes.
    static func appendBytesField(tag: UInt8, _ bytes: [UInt8], to out: inout [UInt8]) {
        out.append(tag)
        appendVarint(UInt64(bytes.count), to: &out)
        out.append(contentsOf: bytes)
    }

    // MARK: Reading

    /// The fields of `body` (the bytes after the version), by tag; a later field with the same
    /// tag replaces an earlier one, as in libolm. Throws for a truncated varint or length, a
    /// varint longer than 64 bits, or a field kind Olm never uses.
    static func fields(of body: ArraySlice<UInt8>) throws(OlmDecryptionError) -> [UInt64: Field] {
        var fields: [UInt64: Field] = [:]
        var position = body.startIndex
        while position < body.endIndex {
            let tag = try readVarint(body, &position)
            switch tag & 7 {
            case 0:
                fields[tag] = .varint(try readVarint(body, &position))
            case 2:
                let length = try readVarint(body, &position)
                guard length <= UInt64(body.endIndex - position) else {
                    throw OlmDecryptionError(.badFormat, "a field runs past the end of the message")
                }
                let end = position + Int(length)
                fields[tag] = .bytes(body[position ..< end])
                position = end
            default:
                throw OlmDecryptionError(.badFormat, "a field of a kind Olm does not use")
            }
        }
        return fields
    }

    private static func readVarint(_ bytes: ArraySlice<UInt8>, _ position: inout Int) throws(OlmDecryptionError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while position < bytes.endIndex {
            let byte = bytes[position]
            position += 1
            guard shift < 64, shift < 63 || byte <= 1 else {
                throw OlmDecryptionError(.badFormat, "a number longer than 64 bits")
            }
            value |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        throw OlmDecryptionError(.badFormat, "the message ends inside a number")
    }
}

extension [UInt64: OlmWireFormat.Field] {
    /// The bytes of field `tag`, required to be `count` long when a count is given.
    func bytes(_ tag: UInt64, count: Int? = nil, naming name: String) throws(OlmDecryptionError) -> [UInt8] {
        guard case .bytes(let bytes)? = self[tag] else { throw OlmDecryptionError(.badFormat, "no \(name)") }
        if let count, bytes.count != count { throw OlmDecryptionError(.badFormat, "the \(name) is not \(count) bytes") }
        return Array(bytes)
    }
}
