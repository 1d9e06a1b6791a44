import ThreadModel

/// The plaintext of an Olm-encrypted to-device message, checked as the spec's
/// `m.olm.v1.curve25519-aes-sha2` section requires before anything in it is used: it must name
/// the event's sender, us as recipient with our Ed25519 key, and, when the sending device is
/// known, that device's Ed25519 key. A payload that fails is dropped with its reason; it could
/// be another user's message replayed to us.
public struct OlmPayload: Sendable, Equatable {
    /// Which check the payload failed.
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { "encrypted to-device message refused: \(reason)" }
    }

    /// The inner event's type (`m.room_key`, `m.dummy`, …).
    public let type: String
    public let content: JSONValue
    /// The Ed25519 key the sender claims for its device.
    public let senderEd25519: String
    /// The sending device's id, if it said.
    public let senderDeviceID: String?

    /// Checks `plaintext` (decrypted from an event of `sender`) against us: `ourUserID` and
    /// `ourEd25519`; and against `knownSenderEd25519`, the sending device's key when we have it.
    public init(plaintext: [UInt8], sender: String, ourUserID: String, ourEd25519: String,
                knownSenderEd25519: String?) throws {
        guard let json = try? JSONValue(parsing: .init(plaintext)), json.object != nil else { throw Refusal(reason: "not a JSON object") }
        guard json["sender"]?.string == sender else { throw Refusal(reason: "it names another sender") }
        guard json["recipient"]?.string == ourUserID else { throw Refusal(reason: "it was meant for another user") }
        guard let recipientKey = json["recipient_keys"]?["ed25519"]?.string,
              ConstantTime.equal(Array(recipientKey.utf8), Array(ourEd25519.utf8)) else {
            throw Refusal(reason: "it was meant for another device")
        }
        guard let claimed = json["keys"]?["ed25519"]?.string else { throw Refusal(reason: "it carries no sender key") }
        if let knownSenderEd25519, !ConstantTime.equal(Array(claimed.utf8), Array(knownSenderEd25519.utf8)) {
            throw Refusal(reason: "its sender key is not the sending device's")
        }
        guard let type = json["type"]?.string, let content = json["content"], content.object != nil else {
            throw Refusal(reason: "no type or content")
        }
        self.type = type
        self.content = content
        senderEd25519 = claimed
        senderDeviceID = json["sender_device"]?.string
    }
}
