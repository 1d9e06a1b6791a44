/// A session's key as exported for key sharing (`m.forwarded_room_key`), key backup and key
/// export files: version 1, the index (4 bytes, big-endian), the ratchet at that index and the
/// session's Ed25519 public key, with no signature (whoever forwards it cannot sign for the
/// session, so the receiver trusts it only as far as it trusts who sent it).
public struct MegolmExportedSessionKey: Sendable, Equatable {
    static let version: UInt8 = 1
    static let byteCount = 1 + 4 + MegolmRatchet.byteCount + 32

    /// The ratchet at the exported index.
    public let ratchet: MegolmRatchet
    /// The session's Ed25519 public key.
    public let signingKey: [UInt8]

    /// The export of a session's `ratchet`, whose public key is `signingKey`.
    init(ratchet: MegolmRatchet, signingKey: [UInt8]) {
        self.ratchet = ratchet
        self.signingKey = signingKey
    }

    /// Reads an exported key's bytes.
    public init(bytes: [UInt8]) throws {
        (ratchet, signingKey) = try MegolmSessionKey.read(bytes, version: Self.version, byteCount: Self.byteCount, name: "exported key")
    }

    /// Reads the unpadded base64 of an exported key (`session_key` of a forwarded key or backup).
    public init(base64 text: String) throws {
        guard let bytes = UnpaddedBase64.decode(text) else { throw MegolmFailure(.badFormat, "the exported key is not base64") }
        try self.init(bytes: bytes)
    }

    /// The exported key's bytes.
    public var bytes: [UInt8] { MegolmSessionKey.layout(version: Self.version, ratchet: ratchet, signingKey: signingKey) }

    /// The exported key as unpadded base64.
    public var base64: String { UnpaddedBase64.encode(bytes) }
}

/// Printing or dumping a key shows its session and index, never its ratchet.
extension MegolmExportedSessionKey: CustomStringConvertible, CustomReflectable {
    public var description: String { "MegolmExportedSessionKey(\(UnpaddedBase64.encode(signingKey)), index \(ratchet.index))" }
    public var customMirror: Mirror { Mirror(self, children: ["index": ratchet.index]) }
}
