/// An Olm pre-key message, as libolm frames it: version 3, the one-time key it was sent to
/// (tag 0x0A), the sender's base key (0x12), the sender's identity key (0x1A), then the normal
/// message inside (0x22). It has no MAC of its own: the keys feed the shared secret, so a
/// changed key fails the inner message's MAC.
struct OlmPreKeyMessage: Equatable {
    private static let oneTimeKeyTag: UInt8 = 0x0a
    private static let baseKeyTag: UInt8 = 0x12
    private static let identityKeyTag: UInt8 = 0x1a
    private static let messageTag: UInt8 = 0x22

    /// The recipient's one-time (or fallback) key the session was made with.
    var oneTimeKey: [UInt8]
    /// The sender's ephemeral base key.
    var baseKey: [UInt8]
    /// The sender's Curve25519 identity key.
    var identityKey: [UInt8]
    /// The normal message inside, with its MAC.
    var message: [UInt8]

    /// The message's bytes.
    var encoded: [UInt8] {
        var out: [UInt8] = [OlmWireFormat.version]
        OlmWireFormat.appendBytesField(tag: Self.oneTimeKeyTag, oneTimeKey, to: &out)
        OlmWireFormat.appendBytesField(tag: Self.baseKeyTag, baseKey, to: &out)
        OlmWireFormat.appendBytesField(tag: Self.identityKeyTag, identityKey, to: &out)
        OlmWireFormat.appendBytesField(tag: Self.messageTag, message, to: &out)
        return out
    }

    /// Reads a pre-key message; every key must be there and 32 bytes long.
    init(decoding bytes: [UInt8]) throws(OlmDecryptionError) {
        guard let version = bytes.first else { throw OlmDecryptionError(.badFormat, "empty") }
        guard version == OlmWireFormat.version else { throw OlmDecryptionError(.unknownVersion, "version \(version)") }
        let fields = try OlmWireFormat.fields(of: bytes[1...])
        oneTimeKey = try fields.bytes(UInt64(Self.oneTimeKeyTag), count: 32, naming: "one-time key")
        baseKey = try fields.bytes(UInt64(Self.baseKeyTag), count: 32, naming: "base key")
        identityKey = try fields.bytes(UInt64(Self.identityKeyTag), count: 32, naming: "identity key")
        message = try fields.bytes(UInt64(Self.messageTag), naming: "inner message")
    }

    init(oneTimeKey: [UInt8], baseKey: [UInt8], identityKey: [UInt8], message: [UInt8]) {
        self.oneTimeKey = oneTimeKey
        self.baseKey = baseKey
        self.identityKey = identityKey
        self.message = message
    }
}
