/// Our side of a Megolm session: the ratchet we encrypt our room messages with and the Ed25519
/// key that signs them (its public key is the session id). Made from 160 random bytes in
/// libolm's order (the ratchet's 128, then the signing key's seed), starting at index 0; each
/// message moves the ratchet one step. Its `sessionKey()` goes to the room's devices in
/// `m.room_key`. Time is never read here: the caller says when the session was made.
public struct MegolmOutboundSession: Sendable {
    /// How many random bytes a new session takes.
    public static let randomByteCount = MegolmRatchet.byteCount + 32

    /// The ratchet at the index the next message is encrypted at.
    public private(set) var ratchet: MegolmRatchet
    /// The key that signs every message.
    let signing: Ed25519KeyPair
    /// When the caller made the session (milliseconds since the epoch), for rotation.
    public let createdAtMilliseconds: Int64

    /// A new session from `random`, made at `createdAtMilliseconds` (the caller's clock).
    public init(random: inout some RandomSource, createdAtMilliseconds: Int64) throws {
        let ratchetBytes = try random.bytes(MegolmRatchet.byteCount)
        let seed = try random.bytes(32)
        try self.init(ratchet: MegolmRatchet(bytes: ratchetBytes, index: 0), signing: Ed25519KeyPair(seed: seed),
                      createdAtMilliseconds: createdAtMilliseconds)
    }

    /// A session at `ratchet` (tests reach high indices this way without sending every message).
    init(ratchet: MegolmRatchet, signing: Ed25519KeyPair, createdAtMilliseconds: Int64) {
        self.ratchet = ratchet
        self.signing = signing
        self.createdAtMilliseconds = createdAtMilliseconds
    }

    /// The session id: the signing key's public key in unpadded base64.
    public var sessionID: String { UnpaddedBase64.encode(signing.publicKey) }

    /// The index the next message will be encrypted at.
    public var messageIndex: UInt32 { ratchet.index }

    /// How many messages the session has encrypted (it starts at index 0, one step each).
    public var messagesSent: UInt32 { ratchet.index }

    /// The signed key to share in `m.room_key`: it decrypts the next message and every later one.
    public func sessionKey() throws -> MegolmSessionKey {
        try MegolmSessionKey(ratchet: ratchet, signing: signing)
    }

    /// Encrypts `plaintext` (the event JSON's bytes) at the current index and moves the ratchet
    /// on. Refused when the ratchet is at its last index: a new session is due long before.
    public mutating func encrypt(_ plaintext: [UInt8]) throws -> MegolmMessage {
        var next = ratchet
        try next.advance()
        let message = try MegolmCipher.encrypt(plaintext, at: ratchet, signingKey: signing)
        ratchet = next
        return message
    }
}

extension MegolmOutboundSession: Codable {
    private enum CodingKeys: String, CodingKey { case ratchet, signingSeed, createdAtMilliseconds }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let seed = UnpaddedBase64.decode(try container.decode(String.self, forKey: .signingSeed)), seed.count == 32 else {
            throw DecodingError.dataCorruptedError(forKey: .signingSeed, in: container, debugDescription: "not an Ed25519 seed")
        }
        try self.init(ratchet: container.decode(MegolmRatchet.self, forKey: .ratchet), signing: Ed25519KeyPair(seed: seed),
                      createdAtMilliseconds: container.decode(Int64.self, forKey: .createdAtMilliseconds))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ratchet, forKey: .ratchet)
        try container.encode(UnpaddedBase64.encode(signing.seed), forKey: .signingSeed)
        try container.encode(createdAtMilliseconds, forKey: .createdAtMilliseconds)
    }
}

/// Printing or dumping a session shows its id and index, never its ratchet or signing seed.
extension MegolmOutboundSession: CustomStringConvertible, CustomReflectable {
    public var description: String { "MegolmOutboundSession(\(sessionID), index \(messageIndex))" }
    public var customMirror: Mirror { Mirror(self, children: ["sessionID": sessionID, "messageIndex": messageIndex]) }
}
