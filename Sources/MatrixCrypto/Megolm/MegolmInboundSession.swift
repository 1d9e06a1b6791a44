/// Someone's Megolm session as a receiver holds it: the ratchet at the first index we can
/// decrypt, the latest ratchet we advanced to (so messages in order cost a step each, not a
/// walk from the start), and the sender's Ed25519 key every message must be signed by.
/// From a `session_key` (`m.room_key`, signature checked) or an exported key (forwarded or
/// backed up, unsigned). An exported key proves nothing about who made it: anyone who saw the
/// session id can invent one, so the client should take forwarded keys only from our own
/// verified devices that we asked, and a signed key always wins over an unsigned copy
/// (`compare`, `merging`).
public struct MegolmInboundSession: Sendable, Equatable {
    /// A decrypted message.
    public struct Decryption: Sendable, Equatable {
        /// The decrypted bytes (the event's JSON).
        public let plaintext: [UInt8]
        /// The index it was encrypted at: what the replay check records per event id.
        public let messageIndex: UInt32
    }

    /// The ratchet at the first index we know.
    private(set) var initialRatchet: MegolmRatchet
    /// The ratchet at the latest index a message was decrypted at (never before the initial).
    private(set) var latestRatchet: MegolmRatchet
    /// The session's Ed25519 public key.
    public let signingKey: [UInt8]
    /// Whether this copy came from (or was found to lead to) a session key whose signature was
    /// checked, rather than only an export.
    public internal(set) var isSigned: Bool

    /// The session of a shared key (`m.room_key`), whose signature was checked when it was read.
    public init(sessionKey: MegolmSessionKey) {
        self.init(ratchet: sessionKey.ratchet, signingKey: sessionKey.signingKey, isSigned: true)
    }

    /// The session of a shared key's base64, checking its signature.
    public init(sessionKey text: String) throws {
        self.init(sessionKey: try MegolmSessionKey(base64: text))
    }

    /// The session of an exported key (forwarded, backed up or from a key file).
    public init(exportedKey: MegolmExportedSessionKey) {
        self.init(ratchet: exportedKey.ratchet, signingKey: exportedKey.signingKey, isSigned: false)
    }

    /// The session of an exported key's base64.
    public init(exportedKey text: String) throws {
        self.init(exportedKey: try MegolmExportedSessionKey(base64: text))
    }

    private init(ratchet: MegolmRatchet, signingKey: [UInt8], isSigned: Bool) {
        initialRatchet = ratchet
        latestRatchet = ratchet
        self.signingKey = signingKey
        self.isSigned = isSigned
        _checkInvariants()
    }

    /// The session id: the signing key in unpadded base64.
    public var sessionID: String { UnpaddedBase64.encode(signingKey) }

    /// The first message index this session can decrypt.
    public var firstKnownIndex: UInt32 { initialRatchet.index }

    /// Decrypts `message`: the signature is checked first, then the index (one before the first
    /// known is refused), then the MAC in constant time. Only a message that decrypts moves the
    /// latest ratchet on; the replay check (`MegolmReplayGuard`) is the caller's, by event id.
    public mutating func decrypt(_ message: MegolmMessage) throws -> Decryption {
        guard Ed25519KeyPair.verify(signature: message.signature, of: message.signedBytes, by: signingKey) else {
            throw MegolmFailure(.badSignature, "the message is not signed by its session")
        }
        let index = message.messageIndex
        let advancesLatest = index >= latestRatchet.index
        let ratchet = try ratchet(at: index)
        let plaintext = try MegolmCipher.decrypt(message, at: ratchet)
        if advancesLatest { latestRatchet = ratchet }
        _checkInvariants()
        return Decryption(plaintext: plaintext, messageIndex: index)
    }

    /// Decrypts the unpadded base64 of a message (an event's `ciphertext`).
    public mutating func decrypt(base64 text: String) throws -> Decryption {
        try decrypt(MegolmMessage(base64: text))
    }

    /// The session's key from `index` on, to forward or back up; refused before the first known
    /// index.
    public func export(at index: UInt32) throws -> MegolmExportedSessionKey {
        MegolmExportedSessionKey(ratchet: try ratchet(at: index), signingKey: signingKey)
    }

    /// The ratchet advanced to `index`: from the latest when that is at or before it, else from
    /// the initial one.
    private func ratchet(at index: UInt32) throws -> MegolmRatchet {
        guard index >= initialRatchet.index else {
            throw MegolmFailure(.unknownMessageIndex, "index \(index) is before the first known index \(initialRatchet.index)")
        }
        var ratchet = index >= latestRatchet.index ? latestRatchet : initialRatchet
        try ratchet.advance(to: index)
        return ratchet
    }

    /// The latest ratchet is never before the initial one, and the key is an Ed25519 key's length.
    func _checkInvariants() {
        assert(latestRatchet.index >= initialRatchet.index, "the latest Megolm ratchet is before the initial one")
        assert(signingKey.count == 32, "a Megolm signing key of \(signingKey.count) bytes")
    }
}

extension MegolmInboundSession: Codable {
    private enum CodingKeys: String, CodingKey { case initialRatchet, latestRatchet, signingKey, isSigned }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let initial = try container.decode(MegolmRatchet.self, forKey: .initialRatchet)
        let latest = try container.decode(MegolmRatchet.self, forKey: .latestRatchet)
        guard latest.index >= initial.index else {
            throw DecodingError.dataCorruptedError(forKey: .latestRatchet, in: container, debugDescription: "the latest ratchet is before the initial one")
        }
        guard let key = UnpaddedBase64.decode(try container.decode(String.self, forKey: .signingKey)), key.count == 32 else {
            throw DecodingError.dataCorruptedError(forKey: .signingKey, in: container, debugDescription: "not an Ed25519 public key")
        }
        initialRatchet = initial
        latestRatchet = latest
        signingKey = key
        // Stored before copies were told apart: unsigned, so a signed key can still replace it.
        isSigned = try container.decodeIfPresent(Bool.self, forKey: .isSigned) ?? false
        _checkInvariants()
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(initialRatchet, forKey: .initialRatchet)
        try container.encode(latestRatchet, forKey: .latestRatchet)
        try container.encode(UnpaddedBase64.encode(signingKey), forKey: .signingKey)
        try container.encode(isSigned, forKey: .isSigned)
    }
}

/// Printing or dumping a session shows its id and first known index, never its ratchets.
extension MegolmInboundSession: CustomStringConvertible, CustomReflectable {
    public var description: String { "MegolmInboundSession(\(sessionID), from index \(firstKnownIndex))" }
    public var customMirror: Mirror { Mirror(self, children: ["sessionID": sessionID, "firstKnownIndex": firstKnownIndex]) }
}
