/// An Olm message as it travels in an `m.room.encrypted` event's `ciphertext` map: its type
/// (0 for a pre-key message, 1 for a normal one) and its bytes, as unpadded base64 `body`.
public struct OlmEncryptedMessage: Equatable, Sendable {
    /// Which of Olm's two kinds of message this is.
    public enum Kind: Int, Sendable {
        /// Sent until the sender has received a reply; it can start a session.
        case preKey = 0
        /// Sent on a session both sides have.
        case normal = 1
    }

    public let kind: Kind
    public let bytes: [UInt8]

    public init(kind: Kind, bytes: [UInt8]) {
        self.kind = kind
        self.bytes = bytes
    }

    /// The message of an event's `type` and `body`; nil for an unknown type or a body that is
    /// not base64.
    public init?(type: Int, body: String) {
        guard let kind = Kind(rawValue: type), let bytes = UnpaddedBase64.decode(body) else { return nil }
        self.init(kind: kind, bytes: bytes)
    }

    /// The `body` to send: the bytes in unpadded base64.
    public var body: String { UnpaddedBase64.encode(bytes) }
}
