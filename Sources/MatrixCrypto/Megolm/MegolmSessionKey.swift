/// The key a sender shares in `m.room_key` (its `session_key`): version 2, the ratchet's index
/// (4 bytes, big-endian), the ratchet's 128 bytes, the session's Ed25519 public key, and that
/// key's signature of all before it, so the receiver knows the key came from the session's
/// owner. In events it is unpadded base64.
public struct MegolmSessionKey: Sendable, Equatable {
    static let version: UInt8 = 2
    static let byteCount = 1 + 4 + MegolmRatchet.byteCount + 32 + 64

    /// The ratchet at the index the key starts from.
    public let ratchet: MegolmRatchet
    /// The session's Ed25519 public key (its id, in base64).
    public let signingKey: [UInt8]
    /// The whole key's bytes, signature included.
    public let bytes: [UInt8]

    /// The key of a sender's session with its ratchet at `ratchet`, signed by `signing`.
    init(ratchet: MegolmRatchet, signing: Ed25519KeyPair) throws {
        let unsigned = Self.layout(version: Self.version, ratchet: ratchet, signingKey: signing.publicKey)
        self.ratchet = ratchet
        self.signingKey = signing.publicKey
        self.bytes = try unsigned + signing.sign(unsigned)
    }

    /// Reads a shared key, checking its signature by the key inside it.
    public init(bytes: [UInt8]) throws {
        let (ratchet, signingKey) = try Self.read(bytes, version: Self.version, byteCount: Self.byteCount, name: "session key")
        let signed = bytes.count - 64
        guard Ed25519KeyPair.verify(signature: Array(bytes[signed...]), of: Array(bytes[..<signed]), by: signingKey) else {
            throw MegolmFailure(.badSignature, "the session key is not signed by its session")
        }
        self.ratchet = ratchet
        self.signingKey = signingKey
        self.bytes = bytes
    }

    /// Reads the unpadded base64 of a shared key.
    public init(base64 text: String) throws {
        guard let bytes = UnpaddedBase64.decode(text) else { throw MegolmFailure(.badFormat, "the session key is not base64") }
        try self.init(bytes: bytes)
    }

    /// The key as unpadded base64, as it goes in `m.room_key`.
    public var base64: String { UnpaddedBase64.encode(bytes) }

    /// The bytes of a key without its signature: version, index, ratchet, public key.
    static func layout(version: UInt8, ratchet: MegolmRatchet, signingKey: [UInt8]) -> [UInt8] {
        var out = [version]
        out.reserveCapacity(1 + 4 + MegolmRatchet.byteCount + 32 + 64)
        for shift in [24, 16, 8, 0] as [UInt32] { out.append(UInt8(truncatingIfNeeded: ratchet.index >> shift)) }
        return out + ratchet.bytes + signingKey
    }

    /// The ratchet and public key of a key of `version` and `byteCount` bytes.
    static func read(_ bytes: [UInt8], version: UInt8, byteCount: Int, name: String) throws -> (MegolmRatchet, [UInt8]) {
        guard bytes.count == byteCount else {
            throw MegolmFailure(.badFormat, "a Megolm \(name) is \(byteCount) bytes, not \(bytes.count)")
        }
        guard bytes[0] == version else { throw MegolmFailure(.badFormat, "\(name) version \(bytes[0]), not \(version)") }
        let index = bytes[1 ..< 5].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let ratchetEnd = 5 + MegolmRatchet.byteCount
        let ratchet = try MegolmRatchet(bytes: Array(bytes[5 ..< ratchetEnd]), index: index)
        return (ratchet, Array(bytes[ratchetEnd ..< ratchetEnd + 32]))
    }
}

/// Printing or dumping a key shows its session and index, never its ratchet.
extension MegolmSessionKey: CustomStringConvertible, CustomReflectable {
    public var description: String { "MegolmSessionKey(\(UnpaddedBase64.encode(signingKey)), index \(ratchet.index))" }
    public var customMirror: Mirror { Mirror(self, children: ["index": ratchet.index]) }
}
