/// A Megolm message's bytes as libolm and vodozemac write them: the version byte 3, then
/// protobuf-style fields (tag 0x08: the message index as a varint; tag 0x12: the ciphertext,
/// length-prefixed), then 8 bytes of truncated HMAC-SHA-256 over all before it, then the
/// sender's 64-byte Ed25519 signature over all before that. In events it is unpadded base64.
public struct MegolmMessage: Sendable, Equatable {
    /// The only version there is.
    public static let version: UInt8 = 3
    static let macLength = 8
    static let signatureLength = 64

    /// The ratchet index the message was encrypted at.
    public let messageIndex: UInt32
    /// The AES-256-CBC ciphertext.
    public let ciphertext: [UInt8]
    /// The message's bytes up to the MAC, as received: what the MAC covers.
    let authenticatedBytes: [UInt8]
    /// The 8-byte truncated MAC.
    let mac: [UInt8]
    /// The 64-byte Ed25519 signature of everything before it.
    let signature: [UInt8]

    /// The whole message.
    public var bytes: [UInt8] { authenticatedBytes + mac + signature }

    /// What the signature covers: the authenticated bytes and the MAC.
    var signedBytes: [UInt8] { authenticatedBytes + mac }

    /// The bytes a new message starts with (version, index, ciphertext), which the MAC and
    /// signature are then computed over.
    static func authenticatedBytes(messageIndex: UInt32, ciphertext: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [version, 0x08]
        appendVarint(UInt64(messageIndex), to: &out)
        out.append(0x12)
        appendVarint(UInt64(ciphertext.count), to: &out)
        return out + ciphertext
    }

    /// A message from its parts (the sender's side, once the MAC and signature are made).
    init(authenticatedBytes: [UInt8], messageIndex: UInt32, ciphertext: [UInt8], mac: [UInt8], signature: [UInt8]) {
        self.authenticatedBytes = authenticatedBytes
        self.messageIndex = messageIndex
        self.ciphertext = ciphertext
        self.mac = mac
        self.signature = signature
    }

    /// Reads a message's bytes. Unknown fields of the two protobuf kinds libolm skips (varint
    /// and length-prefixed) are skipped, and stay covered by the MAC and signature; anything
    /// else that does not read is refused as a bad format, never trusted.
    public init(bytes: [UInt8]) throws {
        let trailer = Self.macLength + Self.signatureLength
        guard bytes.count > trailer else { throw MegolmFailure(.badFormat, "a message of \(bytes.count) bytes is too short") }
        guard bytes[0] == Self.version else {
            throw MegolmFailure(.badFormat, "message version \(bytes[0]), only \(Self.version) is known")
        }
        let end = bytes.count - trailer
        var position = 1
        var index: UInt32?
        var ciphertext: [UInt8]?
        while position < end {
            let tag = try Self.readVarint(bytes, &position, end: end)
            switch (tag, tag & 7) {
            case (0x08, _):
                let value = try Self.readVarint(bytes, &position, end: end)
                guard value <= UInt64(UInt32.max) else { throw MegolmFailure(.badFormat, "a message index past 2^32") }
                index = UInt32(value)
            case (0x12, _):
                ciphertext = Array(try Self.readLengthPrefixed(bytes, &position, end: end))
            case (_, 0):
                _ = try Self.readVarint(bytes, &position, end: end)
            case (_, 2):
                _ = try Self.readLengthPrefixed(bytes, &position, end: end)
            default:
                throw MegolmFailure(.badFormat, "a field of an unknown kind in the message")
            }
        }
        guard let index else { throw MegolmFailure(.badFormat, "no message index in the message") }
        guard let ciphertext else { throw MegolmFailure(.badFormat, "no ciphertext in the message") }
        self.init(authenticatedBytes: Array(bytes[0 ..< end]), messageIndex: index, ciphertext: ciphertext,
                  mac: Array(bytes[end ..< end + Self.macLength]), signature: Array(bytes[end + Self.macLength ..< bytes.count]))
    }

    /// Reads the unpadded base64 text of a message (an event's `ciphertext`).
    public init(base64 text: String) throws {
        guard let bytes = UnpaddedBase64.decode(text) else { throw MegolmFailure(.badFormat, "the message is not base64") }
        try self.init(bytes: bytes)
    }

    /// The message as unpadded base64, as it goes in an event.
    public var base64: String { UnpaddedBase64.encode(bytes) }

    // MARK: Varints

    private static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }

    /// A varint of at most 10 bytes (64 bits) before `end`.
    private static func readVarint(_ bytes: [UInt8], _ position: inout Int, end: Int) throws -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: UInt64(0), to: 70, by: 7) {
            guard position < end else { throw MegolmFailure(.badFormat, "the message ends inside a number") }
            let byte = bytes[position]
            position += 1
            guard shift < 63 || byte <= 1 else { break }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
        }
        throw MegolmFailure(.badFormat, "a number in the message is too long")
    }

    /// A length-prefixed field's bytes, which must end before `end`.
    private static func readLengthPrefixed(_ bytes: [UInt8], _ position: inout Int, end: Int) throws -> ArraySlice<UInt8> {
        let length = try readVarint(bytes, &position, end: end)
        guard length <= UInt64(end - position) else { throw MegolmFailure(.badFormat, "a field runs past the message's end") }
        let start = position
        position += Int(length)
        return bytes[start ..< position]
    }
}
