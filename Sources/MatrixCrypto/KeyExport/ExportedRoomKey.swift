import ThreadModel

/// One room key (Megolm session) as a key export file lists it: the session's key from its
/// first known index, the room, the device that made it and its claimed Ed25519 key, and the
/// devices it was forwarded through. Like a forwarded key it proves nothing about who made the
/// session: whoever wrote the file could have invented it.
public struct ExportedRoomKey: Sendable, Equatable {
    /// The only algorithm the format holds keys of (others are skipped on reading).
    public static let algorithm = "m.megolm.v1.aes-sha2"

    public let roomID: String
    /// The Curve25519 key of the device that made the session (unpadded base64).
    public let senderKey: String
    /// The session's key from the first index it was known at.
    public let sessionKey: MegolmExportedSessionKey
    /// The Ed25519 key of the device that made the session, as it claimed (`sender_claimed_keys`);
    /// nil when not known.
    public let claimedSigningKey: String?
    /// The Curve25519 keys of the devices the key was forwarded through, first to last.
    public let forwardingChain: [String]

    public init(roomID: String, senderKey: String, sessionKey: MegolmExportedSessionKey, claimedSigningKey: String?,
                forwardingChain: [String] = []) {
        self.roomID = roomID
        self.senderKey = senderKey
        self.sessionKey = sessionKey
        self.claimedSigningKey = claimedSigningKey
        self.forwardingChain = forwardingChain
    }

    /// The session id: its signing key, unpadded base64.
    public var sessionID: String { UnpaddedBase64.encode(sessionKey.signingKey) }

    /// The entry as the file's JSON lists it. `sender_claimed_keys` is left out when not known
    /// (matrix-nio skips such an entry rather than refuse the file; Element takes it).
    public var json: JSONValue {
        var entry: [String: JSONValue] = [
            "algorithm": .string(Self.algorithm), "room_id": .string(roomID), "sender_key": .string(senderKey),
            "session_id": .string(sessionID), "session_key": .string(sessionKey.base64),
            "forwarding_curve25519_key_chain": .array(forwardingChain.map(JSONValue.string)),
        ]
        if let claimedSigningKey { entry["sender_claimed_keys"] = ["ed25519": .string(claimedSigningKey)] }
        return .object(entry)
    }

    /// Reads one entry; nil when it is of another algorithm (a file may hold kinds of keys we do
    /// not use). Throws, in words, when a Megolm entry is not laid out as one or its session id
    /// is not its key's.
    public init?(json: JSONValue) throws {
        guard let algorithm = json["algorithm"]?.string else { throw KeyExportRefusal("a room key in the file names no algorithm") }
        guard algorithm == Self.algorithm else { return nil }
        guard let roomID = json["room_id"]?.string, let senderKey = json["sender_key"]?.string,
              let sessionID = json["session_id"]?.string, let text = json["session_key"]?.string else {
            throw KeyExportRefusal("a room key in the file lacks its room, sender, session id or key")
        }
        let sessionKey: MegolmExportedSessionKey
        do {
            sessionKey = try MegolmExportedSessionKey(base64: text)
        } catch {
            throw KeyExportRefusal("a room key in the file does not read as a Megolm session key")
        }
        guard UnpaddedBase64.encode(sessionKey.signingKey) == sessionID else {
            throw KeyExportRefusal("a room key in the file has a session id that is not its key's")
        }
        self.init(roomID: roomID, senderKey: senderKey, sessionKey: sessionKey,
                  claimedSigningKey: json["sender_claimed_keys"]?["ed25519"]?.string,
                  forwardingChain: json["forwarding_curve25519_key_chain"]?.array?.compactMap(\.string) ?? [])
    }
}

/// Printing or dumping an entry shows its room and session, never its key.
extension ExportedRoomKey: CustomStringConvertible, CustomReflectable {
    public var description: String { "ExportedRoomKey(\(roomID), \(sessionID), index \(sessionKey.ratchet.index))" }
    public var customMirror: Mirror { Mirror(self, children: ["roomID": roomID, "sessionID": sessionID]) }
}
