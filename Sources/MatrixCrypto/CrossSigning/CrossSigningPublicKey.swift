import ThreadModel

/// One published cross-signing key, as `/keys/query` returns it under `master_keys`,
/// `self_signing_keys` or `user_signing_keys`: `{"user_id", "usage": [...], "keys":
/// {"ed25519:<key>": "<key>"}, "signatures": {...}}`. The JSON is kept, as it came, because
/// signatures cover it.
public struct CrossSigningPublicKey: Sendable, Equatable {
    /// What a key is for; the `usage` value.
    public enum Usage: String, Sendable, CaseIterable {
        case master
        case selfSigning = "self_signing"
        case userSigning = "user_signing"
    }

    public let userID: String
    public let usage: Usage
    /// The 32-byte Ed25519 public key.
    public let publicKey: [UInt8]
    /// The key object as received (or as we made it).
    public let json: JSONValue

    /// Reads a key object that must be `usage`'s key of `userID`.
    public init(json: JSONValue, usage: Usage, userID: String) throws {
        guard json.object != nil else { throw CrossSigningRefusal("the \(usage.rawValue) key of \(userID) is not an object") }
        guard json["user_id"]?.string == userID else {
            throw CrossSigningRefusal("the \(usage.rawValue) key of \(userID) names another user")
        }
        guard let usages = json["usage"]?.array, usages.contains(.string(usage.rawValue)) else {
            throw CrossSigningRefusal("the \(usage.rawValue) key of \(userID) is not marked for that use")
        }
        guard let keys = json["keys"]?.object, keys.count == 1, let (keyID, value) = keys.first,
              let text = value.string, keyID == "ed25519:\(text)",
              let publicKey = UnpaddedBase64.decode(text), publicKey.count == 32 else {
            throw CrossSigningRefusal("the \(usage.rawValue) key of \(userID) is not one Ed25519 key")
        }
        self.userID = userID
        self.usage = usage
        self.publicKey = publicKey
        self.json = json
    }

    /// The key in unpadded base64, which is also its key id (`ed25519:<this>`).
    public var publicKeyBase64: String { UnpaddedBase64.encode(publicKey) }

    /// Whether `object` carries this key's valid signature (under this key's user).
    public func hasSigned(_ object: JSONValue) -> Bool {
        JSONSigning.verify(object, userID: userID, keyID: publicKeyBase64, publicKey: publicKey)
    }

    /// The key object for `publicKey`, unsigned: what `/keys/device_signing/upload` takes once signed.
    public static func unsignedJSON(userID: String, usage: Usage, publicKey: [UInt8]) -> JSONValue {
        let text = UnpaddedBase64.encode(publicKey)
        return ["user_id": .string(userID), "usage": [.string(usage.rawValue)], "keys": .object(["ed25519:\(text)": .string(text)])]
    }
}
