import ThreadModel

/// Cross-signing of the device this account is: the device's keys signed by the user's
/// self-signing key, and the master key signed by the device, in one `/keys/signatures/upload`
/// body. Here so that the device's Ed25519 seed never leaves the account.
extension OlmAccount {
    /// The body of `/keys/signatures/upload` that cross-signs this device (`keys` are its user's).
    public func crossSigningUploadBody(keys: CrossSigningKeys, deviceID: String) throws -> JSONValue {
        try keys.signaturesUploadBody(deviceKeys: deviceKeys(userID: keys.userID, deviceID: deviceID), deviceKey: signingKeyPair)
    }
}
