import ThreadModel

/// Signing JSON objects (Appendices, "Signing JSON"): a signature covers the canonical JSON of
/// the object without its `signatures` and `unsigned` members, and is kept under
/// `signatures.<user id>.ed25519:<key id>` in unpadded base64.
public enum JSONSigning {
    /// The bytes a signature of `object` covers.
    public static func signedBytes(of object: JSONValue) throws -> [UInt8] {
        guard var members = object.object else { throw CanonicalJSON.Refusal(reason: "only an object can be signed") }
        members["signatures"] = nil
        members["unsigned"] = nil
        return try CanonicalJSON.encode(.object(members))
    }

    /// `object` with `key`'s signature added beside any it already has.
    public static func sign(_ object: JSONValue, userID: String, keyID: String, key: Ed25519KeyPair) throws -> JSONValue {
        let signature = try key.sign(signedBytes(of: object))
        guard var members = object.object else { throw CanonicalJSON.Refusal(reason: "only an object can be signed") }
        var signatures = members["signatures"]?.object ?? [:]
        var users = signatures[userID]?.object ?? [:]
        users["ed25519:\(keyID)"] = .string(UnpaddedBase64.encode(signature))
        signatures[userID] = .object(users)
        members["signatures"] = .object(signatures)
        return .object(members)
    }

    /// Whether `object` carries a valid signature by `publicKey` under `userID`'s `ed25519:<keyID>`.
    /// A missing, malformed or wrong signature is simply not valid.
    public static func verify(_ object: JSONValue, userID: String, keyID: String, publicKey: [UInt8]) -> Bool {
        guard let text = object["signatures"]?[userID]?["ed25519:\(keyID)"]?.string,
              let signature = UnpaddedBase64.decode(text),
              let bytes = try? signedBytes(of: object) else { return false }
        return Ed25519KeyPair.verify(signature: signature, of: bytes, by: publicKey)
    }
}
