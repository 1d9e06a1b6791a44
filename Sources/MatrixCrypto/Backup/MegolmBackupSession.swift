import ThreadModel

/// A session as the backup holds it, once decrypted (the spec's `BackedUpSessionData`): the
/// algorithm, the exported session key, the Curve25519 key of the device that made the session
/// and the Ed25519 key it claimed. Anyone who can write to the backup can invent one, which is
/// why sessions from it are marked as of weaker authenticity.
public struct MegolmBackupSession: Sendable {
    /// The room algorithm every backed-up session must name.
    public static let roomAlgorithm = "m.megolm.v1.aes-sha2"

    public let sessionKey: MegolmExportedSessionKey
    /// The Curve25519 key (unpadded base64) of the device that made the session.
    public let senderKey: String
    /// The Ed25519 key (unpadded base64) that device claimed, when given.
    public let senderClaimedEd25519: String?
    /// The Curve25519 keys of the devices that forwarded it on its way to us.
    public let forwardingChain: [String]

    public init(sessionKey: MegolmExportedSessionKey, senderKey: String, senderClaimedEd25519: String?, forwardingChain: [String] = []) {
        self.sessionKey = sessionKey
        self.senderKey = senderKey
        self.senderClaimedEd25519 = senderClaimedEd25519
        self.forwardingChain = forwardingChain
    }

    /// Reads a decrypted session; refused unless it is a Megolm session laid out as the spec says.
    public init(json: JSONValue) throws {
        guard json["algorithm"]?.string == Self.roomAlgorithm else {
            throw MegolmBackupRefusal("a backed-up session is not a Megolm session")
        }
        guard let senderKey = json["sender_key"]?.string, let text = json["session_key"]?.string else {
            throw MegolmBackupRefusal("a backed-up session has no sender key or session key")
        }
        guard let key = UnpaddedBase64.decode(senderKey), key.count == 32 else {
            throw MegolmBackupRefusal("a backed-up session's sender key is not a Curve25519 key")
        }
        let chain = json["forwarding_curve25519_key_chain"]?.array ?? []
        self.init(sessionKey: try MegolmExportedSessionKey(base64: text), senderKey: senderKey,
                  senderClaimedEd25519: json["sender_claimed_keys"]?["ed25519"]?.string, forwardingChain: chain.compactMap(\.string))
    }

    /// The JSON encrypted into the backup.
    public var json: JSONValue {
        var claimed: [String: JSONValue] = [:]
        if let senderClaimedEd25519 { claimed["ed25519"] = .string(senderClaimedEd25519) }
        return [
            "algorithm": .string(Self.roomAlgorithm), "sender_key": .string(senderKey), "session_key": .string(sessionKey.base64),
            "sender_claimed_keys": .object(claimed), "forwarding_curve25519_key_chain": .array(forwardingChain.map(JSONValue.string)),
        ]
    }

    /// The session id (the session's Ed25519 public key).
    public var sessionID: String { UnpaddedBase64.encode(sessionKey.signingKey) }
}
