import ThreadModel

/// The JSON an account publishes through `/keys/upload` (spec, "End-to-End Encryption",
/// "Device keys" and "One-time and fallback keys"): device keys and `signed_curve25519` keys,
/// each signed by the device's Ed25519 key as Appendices' "Signing JSON" says.
extension OlmAccount {
    /// The algorithms a device advertises: Olm for to-device messages, Megolm for rooms.
    public static let algorithms = ["m.olm.v1.curve25519-aes-sha2", "m.megolm.v1.aes-sha2"]

    /// The device keys object, signed.
    public func deviceKeys(userID: String, deviceID: String) throws -> JSONValue {
        let object: JSONValue = .object([
            "user_id": .string(userID),
            "device_id": .string(deviceID),
            "algorithms": .array(Self.algorithms.map { .string($0) }),
            "keys": .object([
                "curve25519:\(deviceID)": .string(UnpaddedBase64.encode(curve25519Key)),
                "ed25519:\(deviceID)": .string(UnpaddedBase64.encode(ed25519Key)),
            ]),
        ])
        return try JSONSigning.sign(object, userID: userID, keyID: deviceID, key: signingKeyPair)
    }

    /// The unpublished one-time keys as `{"signed_curve25519:<key id>": {"key": …, "signatures": …}}`.
    public func signedOneTimeKeys(userID: String, deviceID: String) throws -> JSONValue {
        var keys: [String: JSONValue] = [:]
        for key in unpublishedOneTimeKeys {
            keys["signed_curve25519:\(key.keyID)"] = try signedKey(key, fallback: false, userID: userID, deviceID: deviceID)
        }
        return .object(keys)
    }

    /// The unpublished fallback key as `{"signed_curve25519:<key id>": {"key": …, "fallback": true,
    /// "signatures": …}}`, or an empty object when it is published.
    public func signedFallbackKeys(userID: String, deviceID: String) throws -> JSONValue {
        guard let key = unpublishedFallbackKey else { return .object([:]) }
        return .object(["signed_curve25519:\(key.keyID)": try signedKey(key, fallback: true, userID: userID, deviceID: deviceID)])
    }

    /// The body of `/keys/upload`: device keys when asked for (the first upload), and whatever
    /// one-time and fallback keys are not yet published. Call `markKeysAsPublished` once the
    /// server has taken it.
    public func keysUploadBody(userID: String, deviceID: String, includingDeviceKeys: Bool) throws -> JSONValue {
        var body: [String: JSONValue] = [:]
        if includingDeviceKeys { body["device_keys"] = try deviceKeys(userID: userID, deviceID: deviceID) }
        if let oneTime = try signedOneTimeKeys(userID: userID, deviceID: deviceID).object, !oneTime.isEmpty {
            body["one_time_keys"] = .object(oneTime)
        }
        if let fallback = try signedFallbackKeys(userID: userID, deviceID: deviceID).object, !fallback.isEmpty {
            body["fallback_keys"] = .object(fallback)
        }
        return .object(body)
    }

    /// The unpublished one-time keys as libolm's `olm_account_one_time_keys` gives them:
    /// `{"curve25519": {"<key id>": "<key>"}}`.
    public var oneTimeKeysJSON: JSONValue {
        .object(["curve25519": .object(Dictionary(uniqueKeysWithValues: unpublishedOneTimeKeys.map { ($0.keyID, JSONValue.string($0.base64)) }))])
    }

    /// The unpublished fallback key in libolm's shape: `{"curve25519": {"<key id>": "<key>"}}`,
    /// empty inside when there is none.
    public var fallbackKeyJSON: JSONValue {
        .object(["curve25519": .object(unpublishedFallbackKey.map { [$0.keyID: JSONValue.string($0.base64)] } ?? [:])])
    }

    private func signedKey(_ key: OlmPublicKey, fallback: Bool, userID: String, deviceID: String) throws -> JSONValue {
        var members: [String: JSONValue] = ["key": .string(key.base64)]
        if fallback { members["fallback"] = .bool(true) }
        return try JSONSigning.sign(.object(members), userID: userID, keyID: deviceID, key: signingKeyPair)
    }
}
