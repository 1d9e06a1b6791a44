import ThreadModel

/// Our own cross-signing private keys (Ed25519 seeds): master, self-signing and user-signing.
/// They live in secret storage as the base64 of each seed, under the secret names below; with
/// them we sign our device, so other users' clients (Element, spec v1.18) send it room keys.
public struct CrossSigningKeys: Sendable, CustomStringConvertible {
    /// The secret names, also the account-data event types, of the three seeds.
    public static let masterSecretName = "m.cross_signing.master"
    public static let selfSigningSecretName = "m.cross_signing.self_signing"
    public static let userSigningSecretName = "m.cross_signing.user_signing"

    public let userID: String
    public let master: Ed25519KeyPair
    public let selfSigning: Ed25519KeyPair
    public let userSigning: Ed25519KeyPair

    /// The keys of three 32-byte seeds.
    public init(userID: String, masterSeed: [UInt8], selfSigningSeed: [UInt8], userSigningSeed: [UInt8]) throws {
        guard [masterSeed, selfSigningSeed, userSigningSeed].allSatisfy({ $0.count == 32 }) else {
            throw CrossSigningRefusal("a cross-signing key is not 32 bytes")
        }
        self.userID = userID
        master = try Ed25519KeyPair(seed: masterSeed)
        selfSigning = try Ed25519KeyPair(seed: selfSigningSeed)
        userSigning = try Ed25519KeyPair(seed: userSigningSeed)
    }

    /// New keys from 96 bytes of `random` (master, self-signing, user-signing in that order).
    public static func generate(userID: String, random: inout some RandomSource) throws -> CrossSigningKeys {
        try CrossSigningKeys(userID: userID, masterSeed: random.bytes(32), selfSigningSeed: random.bytes(32),
                             userSigningSeed: random.bytes(32))
    }

    /// The keys read from secret storage: `accountData` maps event types to contents, as sync
    /// delivers the account's account data.
    public init(userID: String, secretStorage key: SecretStorageKey, accountData: [String: JSONValue]) throws {
        func seed(_ name: String) throws -> [UInt8] {
            guard let content = accountData[name] else {
                throw CrossSigningRefusal("the account's secret storage has no \(name) key (set up cross-signing in another client)")
            }
            guard let seed = UnpaddedBase64.decode(try key.decryptSecret(named: name, eventContent: content)), seed.count == 32 else {
                throw CrossSigningRefusal("the secret \(name) is not a 32-byte key in base64")
            }
            return seed
        }
        try self.init(userID: userID, masterSeed: seed(Self.masterSecretName), selfSigningSeed: seed(Self.selfSigningSecretName),
                      userSigningSeed: seed(Self.userSigningSecretName))
    }

    /// The three secrets' account-data contents, encrypted for `key` (setting up cross-signing).
    public func secretEventContents(for key: SecretStorageKey, random: inout some RandomSource) throws -> [String: JSONValue] {
        [
            Self.masterSecretName: try key.encryptedEventContent(secret: UnpaddedBase64.encode(master.seed), named: Self.masterSecretName, random: &random),
            Self.selfSigningSecretName: try key.encryptedEventContent(secret: UnpaddedBase64.encode(selfSigning.seed), named: Self.selfSigningSecretName, random: &random),
            Self.userSigningSecretName: try key.encryptedEventContent(secret: UnpaddedBase64.encode(userSigning.seed), named: Self.userSigningSecretName, random: &random),
        ]
    }

    /// The public identity these keys make: the master key, and the other two signed by it
    /// (the body of `/keys/device_signing/upload` is these three objects).
    public func publicIdentity() throws -> CrossSigningIdentity {
        let masterJSON = CrossSigningPublicKey.unsignedJSON(userID: userID, usage: .master, publicKey: master.publicKey)
        let selfSigningJSON = try signedByMaster(CrossSigningPublicKey.unsignedJSON(userID: userID, usage: .selfSigning, publicKey: selfSigning.publicKey))
        let userSigningJSON = try signedByMaster(CrossSigningPublicKey.unsignedJSON(userID: userID, usage: .userSigning, publicKey: userSigning.publicKey))
        return try CrossSigningIdentity(userID: userID, master: masterJSON, selfSigning: selfSigningJSON, userSigning: userSigningJSON)
    }

    /// Refused unless the server publishes these keys' public halves as `published`: secret
    /// storage holding other keys than the account's identity would sign our device in vain.
    public func checkMatches(_ published: CrossSigningIdentity) throws {
        guard published.userID == userID,
              ConstantTime.equal(published.master.publicKey, master.publicKey),
              ConstantTime.equal(published.selfSigning.publicKey, selfSigning.publicKey) else {
            throw CrossSigningRefusal("the cross-signing keys in secret storage are not the ones the server publishes for \(userID)")
        }
        if let publishedUserSigning = published.userSigning, !ConstantTime.equal(publishedUserSigning.publicKey, userSigning.publicKey) {
            throw CrossSigningRefusal("the user-signing key in secret storage is not the one the server publishes for \(userID)")
        }
    }

    /// Our device's keys object (as uploaded) with the self-signing key's signature added beside
    /// the device's own; `unsigned` is dropped, as the server does not take it back.
    public func signDevice(_ deviceKeys: JSONValue) throws -> JSONValue {
        guard deviceKeys["user_id"]?.string == userID, deviceKeys["device_id"]?.string != nil else {
            throw CrossSigningRefusal("only a device of \(userID) can be signed with their self-signing key")
        }
        guard var members = try JSONSigning.sign(deviceKeys, userID: userID, keyID: UnpaddedBase64.encode(selfSigning.publicKey), key: selfSigning).object else {
            throw CrossSigningRefusal("the device keys are not an object")
        }
        members["unsigned"] = nil
        return .object(members)
    }

    /// The body of `/keys/signatures/upload` that cross-signs our device:
    /// `{"<user id>": {"<device id>": <signed device keys>}}`. Given the device's own Ed25519 key,
    /// the master key object signed by the device goes along under the master key's id, as
    /// Element uploads it, so our other devices can trust the identity through this one.
    public func signaturesUploadBody(deviceKeys: JSONValue, deviceKey: Ed25519KeyPair? = nil) throws -> JSONValue {
        let signed = try signDevice(deviceKeys)
        guard let deviceID = signed["device_id"]?.string else { throw CrossSigningRefusal("the device keys have no device id") }
        var uploads: [String: JSONValue] = [deviceID: signed]
        if let deviceKey {
            let masterJSON = CrossSigningPublicKey.unsignedJSON(userID: userID, usage: .master, publicKey: master.publicKey)
            let masterID = UnpaddedBase64.encode(master.publicKey)
            uploads[masterID] = try JSONSigning.sign(masterJSON, userID: userID, keyID: deviceID, key: deviceKey)
        }
        return .object([userID: .object(uploads)])
    }

    /// Names the user, never the keys.
    public var description: String { "cross-signing keys of \(userID)" }

    private func signedByMaster(_ object: JSONValue) throws -> JSONValue {
        try JSONSigning.sign(object, userID: userID, keyID: UnpaddedBase64.encode(master.publicKey), key: master)
    }
}

/// Dumping shows whose keys they are and the master's public key, never a seed.
extension CrossSigningKeys: CustomDebugStringConvertible, CustomReflectable {
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(self, children: ["userID": userID, "masterKey": UnpaddedBase64.encode(master.publicKey)])
    }
}
