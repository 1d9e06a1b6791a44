import ThreadModel

/// The content of an `m.room_key` (a Megolm session shared with us over Olm) or an
/// `m.forwarded_room_key` (one passed on by another device), as decrypted from a to-device
/// message. Only the Megolm algorithm is taken; the session key itself is read by Megolm.
public struct RoomKeyContent: Sendable, Equatable {
    /// What in a room key content was missing or wrong.
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { "room key refused: \(reason)" }
    }

    public let roomID: String
    public let sessionID: String
    /// The base64 session key (`m.room_key`) or exported key (`m.forwarded_room_key`).
    public let sessionKey: String
    /// Whether it was forwarded (an export, no signature; trusted less).
    public let forwarded: Bool
    /// For a forwarded key: the Curve25519 key of the device that made the session.
    public let senderKey: String?
    /// For a forwarded key: the Ed25519 key the original sender claimed.
    public let claimedSenderEd25519: String?

    /// Reads `content` of an event of `type`.
    public init(type: String, content: JSONValue) throws {
        guard type == "m.room_key" || type == "m.forwarded_room_key" else { throw Refusal(reason: "not a room key (\(type))") }
        guard content["algorithm"]?.string == "m.megolm.v1.aes-sha2" else { throw Refusal(reason: "not a Megolm key") }
        guard let room = content["room_id"]?.string, !room.isEmpty else { throw Refusal(reason: "no room") }
        guard let session = content["session_id"]?.string, UnpaddedBase64.decode(session) != nil else { throw Refusal(reason: "no session id") }
        guard let key = content["session_key"]?.string, UnpaddedBase64.decode(key) != nil else { throw Refusal(reason: "no session key") }
        roomID = room
        sessionID = session
        sessionKey = key
        forwarded = type == "m.forwarded_room_key"
        if forwarded {
            guard let sender = content["sender_key"]?.string, UnpaddedBase64.decode(sender)?.count == 32 else {
                throw Refusal(reason: "a forwarded key without the sender's key")
            }
            senderKey = sender
            claimedSenderEd25519 = content["sender_claimed_ed25519_key"]?.string
        } else {
            senderKey = nil
            claimedSenderEd25519 = nil
        }
    }
}

/// An `m.room_key.withheld` to-device event's content: a sender telling us why we will not get
/// a session's key, so the message says why rather than waiting forever.
public struct WithheldNotice: Sendable, Equatable {
    public let roomID: String?
    public let sessionID: String?
    /// The Curve25519 key of the device that withheld it.
    public let senderKey: String
    public let code: WithheldCode

    /// Reads the content; nil when it names no sender key or code (nothing to attach it to).
    public init?(content: JSONValue) {
        guard content["algorithm"]?.string == "m.megolm.v1.aes-sha2",
              let sender = content["sender_key"]?.string, let code = content["code"]?.string else { return nil }
        roomID = content["room_id"]?.string
        sessionID = content["session_id"]?.string
        senderKey = sender
        self.code = WithheldCode(code: code)
    }
}
