import ThreadModel

extension OlmPayload {
    /// The plaintext of an Olm message we send to one device: the inner event (`type`,
    /// `content`) with what the receiver checks (see `init(plaintext:…)`): us as sender with our
    /// device and Ed25519 key, and the recipient with theirs, so it cannot be replayed to another.
    public static func plaintext(type: String, content: JSONValue, sender: String, senderDevice: String, senderEd25519: String,
                                 recipient: String, recipientEd25519: String) throws -> [UInt8] {
        try CanonicalJSON.encode([
            "type": .string(type), "content": content,
            "sender": .string(sender), "sender_device": .string(senderDevice), "keys": ["ed25519": .string(senderEd25519)],
            "recipient": .string(recipient), "recipient_keys": ["ed25519": .string(recipientEd25519)],
        ])
    }
}
