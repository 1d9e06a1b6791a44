/// An Olm session (`m.olm.v1.curve25519-aes-sha2`) between two devices: the keys it was made
/// from and its double ratchet. Whoever made it ("Alice") sends pre-key messages until the
/// first reply; the other ("Bob") makes it from the first pre-key message. A value: the caller
/// stores it after each change (it is `Codable`), and keeps a new inbound session only because
/// its first message decrypted (`inbound` returns both together).
public struct OlmSession: Codable, Equatable, Sendable {
    /// The creator's Curve25519 identity key.
    let aliceIdentityKey: [UInt8]
    /// The creator's ephemeral base key.
    let aliceBaseKey: [UInt8]
    /// The receiver's one-time (or fallback) key the session was made with.
    let bobOneTimeKey: [UInt8]
    /// Whether a message from the other side has decrypted: until then we send pre-key messages.
    public private(set) var hasReceivedMessage: Bool
    private(set) var ratchet: OlmRatchet
    // `sessionID` (below) is derived from the three keys, so not stored.

    private enum CodingKeys: String, CodingKey {
        case aliceIdentityKey, aliceBaseKey, bobOneTimeKey, hasReceivedMessage, ratchet
    }

    init(aliceIdentityKey: [UInt8], aliceBaseKey: [UInt8], bobOneTimeKey: [UInt8], hasReceivedMessage: Bool, ratchet: OlmRatchet) throws {
        sessionID = try Self.sessionID(aliceIdentityKey, aliceBaseKey, bobOneTimeKey)
        self.aliceIdentityKey = aliceIdentityKey
        self.aliceBaseKey = aliceBaseKey
        self.bobOneTimeKey = bobOneTimeKey
        self.hasReceivedMessage = hasReceivedMessage
        self.ratchet = ratchet
    }

    /// A stored session; throws when it does not hold together (see `_checkInvariants`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        aliceIdentityKey = try container.decode(OlmBase64Coded.self, forKey: .aliceIdentityKey).wrappedValue
        aliceBaseKey = try container.decode(OlmBase64Coded.self, forKey: .aliceBaseKey).wrappedValue
        bobOneTimeKey = try container.decode(OlmBase64Coded.self, forKey: .bobOneTimeKey).wrappedValue
        hasReceivedMessage = try container.decode(Bool.self, forKey: .hasReceivedMessage)
        ratchet = try container.decode(OlmRatchet.self, forKey: .ratchet)
        sessionID = try Self.sessionID(aliceIdentityKey, aliceBaseKey, bobOneTimeKey)
        try _checkInvariants()
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(OlmBase64Coded(wrappedValue: aliceIdentityKey), forKey: .aliceIdentityKey)
        try container.encode(OlmBase64Coded(wrappedValue: aliceBaseKey), forKey: .aliceBaseKey)
        try container.encode(OlmBase64Coded(wrappedValue: bobOneTimeKey), forKey: .bobOneTimeKey)
        try container.encode(hasReceivedMessage, forKey: .hasReceivedMessage)
        try container.encode(ratchet, forKey: .ratchet)
    }

    /// The session id: SHA-256 of the creator's identity key, its base key and the one-time
    /// key, in unpadded base64, as libolm computes it (once, when the session is made or read).
    public let sessionID: String

    private static func sessionID(_ identityKey: [UInt8], _ baseKey: [UInt8], _ oneTimeKey: [UInt8]) throws -> String {
        UnpaddedBase64.encode(try Digest.sha256(identityKey + baseKey + oneTimeKey))
    }

    // MARK: Making one

    /// A session to a device whose identity key and one-time (or fallback) key we claimed.
    /// Takes 64 random bytes: the base key, then the first ratchet key, as libolm does.
    public static func outbound(account: OlmAccount, theirIdentityKey: [UInt8], theirOneTimeKey: [UInt8],
                                random: inout some RandomSource) throws -> OlmSession {
        guard theirIdentityKey.count == 32, theirOneTimeKey.count == 32 else { throw CryptoFailure("Olm session (a key is not 32 bytes)") }
        let baseKey = try Curve25519KeyPair(random: &random)
        let ratchetKey = try Curve25519KeyPair(random: &random)
        let identity = try account.identityKeyPair
        // Triple DH: ECDH(I_A, E_B) || ECDH(E_A, I_B) || ECDH(E_A, E_B).
        let secret = try identity.sharedSecret(with: theirOneTimeKey)
            + baseKey.sharedSecret(with: theirIdentityKey)
            + baseKey.sharedSecret(with: theirOneTimeKey)
        return try OlmSession(aliceIdentityKey: identity.publicKey, aliceBaseKey: baseKey.publicKey, bobOneTimeKey: theirOneTimeKey,
                          hasReceivedMessage: false, ratchet: try .alice(sharedSecret: secret, ratchetKey: ratchetKey))
    }

    /// The session a pre-key message starts, with the message's plaintext: both or neither.
    /// `theirIdentityKey`, when given (the event's `sender_key`), must be the message's. Nothing
    /// changes in `account`: after keeping the session, the caller removes the one-time key it
    /// used (`OlmAccount.removeOneTimeKey(usedBy:)`) and stores both.
    public static func inbound(account: OlmAccount, theirIdentityKey: [UInt8]? = nil,
                               preKeyMessage bytes: [UInt8]) throws(OlmDecryptionError) -> (session: OlmSession, plaintext: [UInt8]) {
        let message = try OlmPreKeyMessage(decoding: bytes)
        if let theirIdentityKey, theirIdentityKey != message.identityKey {
            throw OlmDecryptionError(.identityKeyMismatch, "")
        }
        guard let oneTimeKey = account.oneTimeKeyPair(for: message.oneTimeKey) else {
            throw OlmDecryptionError(.unknownOneTimeKey, "")
        }
        let (inner, _, _) = try OlmMessage.decode(message.message)
        let ratchet: OlmRatchet
        do {
            let identity = try account.identityKeyPair
            // The same triple DH from Bob's side: ECDH(E_B, I_A) || ECDH(I_B, E_A) || ECDH(E_B, E_A).
            let secret = try oneTimeKey.sharedSecret(with: message.identityKey)
                + identity.sharedSecret(with: message.baseKey)
                + oneTimeKey.sharedSecret(with: message.baseKey)
            ratchet = try .bob(sharedSecret: secret, theirRatchetKey: inner.ratchetKey)
        } catch {
            throw OlmDecryptionError(.invalidKey, "the sender's identity or base key")
        }
        var session: OlmSession
        do {
            session = try OlmSession(aliceIdentityKey: message.identityKey, aliceBaseKey: message.baseKey,
                                     bobOneTimeKey: message.oneTimeKey, hasReceivedMessage: false, ratchet: ratchet)
        } catch {
            throw OlmDecryptionError(.libraryFailure, "SHA-256 of the session id")
        }
        let plaintext = try session.decrypt(OlmEncryptedMessage(kind: .preKey, bytes: bytes))
        return (session, plaintext)
    }

    /// Whether a pre-key message was made for this session (same identity, base and one-time
    /// keys): a device sends pre-key messages until it hears back, and they belong here, not
    /// to a new session.
    public func matches(preKeyMessage bytes: [UInt8], theirIdentityKey: [UInt8]? = nil) -> Bool {
        guard let message = try? OlmPreKeyMessage(decoding: bytes) else { return false }
        if let theirIdentityKey, theirIdentityKey != aliceIdentityKey { return false }
        return message.identityKey == aliceIdentityKey && message.baseKey == aliceBaseKey && message.oneTimeKey == bobOneTimeKey
    }

    // MARK: Messages

    /// How many random bytes the next `encrypt` takes (32 when it starts a new ratchet, else 0).
    public var encryptRandomLength: Int { ratchet.encryptRandomLength }

    /// `plaintext` encrypted: a pre-key message until the other side has replied, then normal.
    public mutating func encrypt(_ plaintext: [UInt8], random: inout some RandomSource) throws -> OlmEncryptedMessage {
        let inner = try ratchet.encrypt(plaintext, random: &random)
        guard !hasReceivedMessage else { return OlmEncryptedMessage(kind: .normal, bytes: inner) }
        let outer = OlmPreKeyMessage(oneTimeKey: bobOneTimeKey, baseKey: aliceBaseKey, identityKey: aliceIdentityKey, message: inner)
        return OlmEncryptedMessage(kind: .preKey, bytes: outer.encoded)
    }

    /// The plaintext of a message on this session; the session changes only if it decrypts.
    /// A pre-key message must match the session (`matches`).
    public mutating func decrypt(_ message: OlmEncryptedMessage) throws(OlmDecryptionError) -> [UInt8] {
        let inner: [UInt8]
        switch message.kind {
        case .normal:
            inner = message.bytes
        case .preKey:
            let preKey = try OlmPreKeyMessage(decoding: message.bytes)
            guard preKey.identityKey == aliceIdentityKey, preKey.baseKey == aliceBaseKey, preKey.oneTimeKey == bobOneTimeKey else {
                throw OlmDecryptionError(.sessionMismatch, "")
            }
            inner = preKey.message
        }
        let plaintext = try ratchet.decrypt(inner)
        hasReceivedMessage = true
        return plaintext
    }

    /// Throws when a stored session does not hold together: keys of the wrong length or a
    /// damaged ratchet.
    func _checkInvariants() throws {
        guard aliceIdentityKey.count == 32, aliceBaseKey.count == 32, bobOneTimeKey.count == 32 else {
            throw CryptoFailure("Olm session state (a key is not 32 bytes)")
        }
        try ratchet._checkInvariants()
    }
}

/// Printing, dumping or a test failure shows the session's id, never its ratchet's keys.
extension OlmSession: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "OlmSession(\(sessionID))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["sessionID": sessionID, "hasReceivedMessage": hasReceivedMessage]) }
}
