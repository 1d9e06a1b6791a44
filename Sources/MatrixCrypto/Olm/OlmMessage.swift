/// An Olm normal message, as libolm frames it: version 3, the sender's ratchet key (tag 0x0A),
/// the message's index in its chain (0x10), the AES-256-CBC ciphertext (0x22), then an 8-byte
/// HMAC-SHA-256 over everything before it.
struct OlmMessage: Equatable {
    static let macLength = 8
    private static let ratchetKeyTag: UInt8 = 0x0a
    private static let counterTag: UInt8 = 0x10
    private static let ciphertextTag: UInt8 = 0x22

    /// The sender's current ratchet public key (32 bytes).
    var ratchetKey: [UInt8]
    /// The index of the message key in the sender's chain.
    var counter: UInt32
    /// The AES-256-CBC ciphertext.
    var ciphertext: [UInt8]

    init(ratchetKey: [UInt8], counter: UInt32, ciphertext: [UInt8]) {
        self.ratchetKey = ratchetKey
        self.counter = counter
        self.ciphertext = ciphertext
    }

    /// The message's bytes up to (not including) its MAC: what the MAC covers.
    var bytesBeforeMAC: [UInt8] {
        var out: [UInt8] = [OlmWireFormat.version]
        OlmWireFormat.appendBytesField(tag: Self.ratchetKeyTag, ratchetKey, to: &out)
        OlmWireFormat.appendVarintField(tag: Self.counterTag, UInt64(counter), to: &out)
        OlmWireFormat.appendBytesField(tag: Self.ciphertextTag, ciphertext, to: &out)
        return out
    }

    /// Reads `bytes` (the whole message with its MAC); returns the message, the bytes its MAC
    /// covers and the MAC. Checks the layout only; the MAC is checked by whoever has the key.
    static func decode(_ bytes: [UInt8]) throws(OlmDecryptionError) -> (message: OlmMessage, covered: ArraySlice<UInt8>, mac: [UInt8]) {
        guard bytes.count > macLength else { throw OlmDecryptionError(.badFormat, "too short") }
        guard bytes[0] == OlmWireFormat.version else {
            throw OlmDecryptionError(.unknownVersion, "version \(bytes[0])")
        }
        let macStart = bytes.count - macLength
        let fields = try OlmWireFormat.fields(of: bytes[1 ..< macStart])
        let ratchetKey = try fields.bytes(UInt64(ratchetKeyTag), count: 32, naming: "ratchet key")
        guard case .varint(let counter)? = fields[UInt64(counterTag)] else {
            throw OlmDecryptionError(.badFormat, "no message index")
        }
        guard counter <= UInt64(UInt32.max) else { throw OlmDecryptionError(.badFormat, "message index out of range") }
        let ciphertext = try fields.bytes(UInt64(ciphertextTag), naming: "ciphertext")
        let message = OlmMessage(ratchetKey: ratchetKey, counter: UInt32(counter), ciphertext: ciphertext)
        return (message, bytes[0 ..< macStart], Array(bytes[macStart...]))
    }
}
