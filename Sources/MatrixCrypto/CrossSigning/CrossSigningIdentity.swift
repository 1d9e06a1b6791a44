import ThreadModel

/// A user's published cross-signing identity, checked: the master key, and the self-signing
/// (and, when given, user-signing) key that the master key signed.
public struct CrossSigningIdentity: Sendable, Equatable {
    public let userID: String
    public let master: CrossSigningPublicKey
    public let selfSigning: CrossSigningPublicKey
    /// Only the user themself sees their user-signing key in `/keys/query`.
    public let userSigning: CrossSigningPublicKey?

    /// Reads and checks the three key objects; refused when the master key did not sign the others.
    public init(userID: String, master: JSONValue, selfSigning: JSONValue, userSigning: JSONValue? = nil) throws {
        let masterKey = try CrossSigningPublicKey(json: master, usage: .master, userID: userID)
        let selfSigningKey = try CrossSigningPublicKey(json: selfSigning, usage: .selfSigning, userID: userID)
        guard masterKey.hasSigned(selfSigning) else {
            throw CrossSigningRefusal("the self-signing key of \(userID) is not signed by their master key")
        }
        let userSigningKey = try userSigning.map { try CrossSigningPublicKey(json: $0, usage: .userSigning, userID: userID) }
        if let userSigning, !masterKey.hasSigned(userSigning) {
            throw CrossSigningRefusal("the user-signing key of \(userID) is not signed by their master key")
        }
        self.userID = userID
        self.master = masterKey
        self.selfSigning = selfSigningKey
        self.userSigning = userSigningKey
    }

    /// `userID`'s identity from a `/keys/query` response; nil when the user has none published
    /// (no master or no self-signing key), refused when what is published does not check.
    public static func fromKeysQuery(_ response: JSONValue, userID: String) throws -> CrossSigningIdentity? {
        guard let master = response["master_keys"]?[userID], let selfSigning = response["self_signing_keys"]?[userID] else {
            return nil
        }
        return try CrossSigningIdentity(userID: userID, master: master, selfSigning: selfSigning,
                                        userSigning: response["user_signing_keys"]?[userID])
    }

    /// Whether `deviceKeys` (a device's keys object from `/keys/query`) belongs to this user and
    /// carries a valid signature by this identity's self-signing key. The device's signature of
    /// its own keys is the device-list code's check, not this one's.
    public func hasCrossSigned(deviceKeys: JSONValue) -> Bool {
        guard deviceKeys["user_id"]?.string == userID, deviceKeys["device_id"]?.string != nil else { return false }
        return selfSigning.hasSigned(deviceKeys)
    }
}
