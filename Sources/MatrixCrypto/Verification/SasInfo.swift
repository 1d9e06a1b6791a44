import ThreadModel

/// The strings the spec's SAS verification derives its keys from, and the commitment the
/// accepting device makes to its key: each must be byte-equal on both sides.
public enum SasInfo {
    /// One side of a verification: a user's device and the ephemeral public key it sent
    /// (unpadded base64).
    public struct Side: Sendable, Equatable {
        public let userID: String
        public let deviceID: String
        public let publicKey: String

        public init(userID: String, deviceID: String, publicKey: String) {
            self.userID = userID
            self.deviceID = deviceID
            self.publicKey = publicKey
        }
    }

    /// The HKDF info of the short authentication string for `curve25519-hkdf-sha256`:
    /// `MATRIX_KEY_VERIFICATION_SAS|` then the starter's and the accepter's user, device and
    /// key, each followed by `|`, then the transaction id (the request's event id in a room).
    public static func sas(starter: Side, accepter: Side, transactionID: String) -> String {
        "MATRIX_KEY_VERIFICATION_SAS|\(starter.userID)|\(starter.deviceID)|\(starter.publicKey)|"
            + "\(accepter.userID)|\(accepter.deviceID)|\(accepter.publicKey)|\(transactionID)"
    }

    /// The HKDF info of a MAC (`hkdf-hmac-sha256.v2`): `MATRIX_KEY_VERIFICATION_MAC`, the sending
    /// user and device, the receiving user and device, the transaction id and the key id (or
    /// `KEY_IDS` for the list of keys), with nothing between them.
    public static func mac(senderUser: String, senderDevice: String, receiverUser: String, receiverDevice: String,
                           transactionID: String, keyID: String) -> String {
        "MATRIX_KEY_VERIFICATION_MAC\(senderUser)\(senderDevice)\(receiverUser)\(receiverDevice)\(transactionID)\(keyID)"
    }

    /// The name of the MAC'd key list: `KEY_IDS`.
    public static let keyIDsName = "KEY_IDS"

    /// The accepter's commitment: unpadded base64 of SHA-256 of its ephemeral public key
    /// (unpadded base64) followed by the canonical JSON of the start event's content.
    public static func commitment(publicKey: String, startContent: JSONValue) throws -> String {
        UnpaddedBase64.encode(try Digest.sha256(Array(publicKey.utf8) + CanonicalJSON.encode(startContent)))
    }
}
