import ThreadModel

/// A key backup version as the server describes it (`GET /room_keys/version`): its number, its
/// algorithm and its `auth_data` (the public key, signed). Before a client restores from it or
/// uploads to it, `checkTrusted` makes sure it is the backup our key opens and that our own
/// trusted identity signed it: a server could otherwise offer a backup of its own making,
/// collecting the keys we upload or feeding us keys it invented.
public struct MegolmBackupVersion: Sendable, Equatable {
    public let version: String
    public let algorithm: String
    /// The backup's public key (32 bytes) from `auth_data`.
    public let publicKey: [UInt8]
    /// `auth_data` as received (signatures cover it).
    public let authData: JSONValue

    /// Reads the server's answer; refused when it is not a backup of our algorithm.
    public init(json: JSONValue) throws {
        guard let version = json["version"]?.string, !version.isEmpty, version.utf8.count <= 255 else {
            throw MegolmBackupRefusal("the homeserver's key backup has no version")
        }
        guard let algorithm = json["algorithm"]?.string, algorithm == MegolmBackupKey.algorithm else {
            throw MegolmBackupRefusal("the homeserver's key backup uses an algorithm comment-tui does not know")
        }
        guard let authData = json["auth_data"], authData.object != nil else {
            throw MegolmBackupRefusal("the homeserver's key backup has no auth_data")
        }
        guard let text = authData["public_key"]?.string, let publicKey = UnpaddedBase64.decode(text), publicKey.count == 32 else {
            throw MegolmBackupRefusal("the key backup's public key is not a Curve25519 key")
        }
        self.version = version
        self.algorithm = algorithm
        self.publicKey = publicKey
        self.authData = authData
    }

    /// Whom the signatures of `auth_data` may come from: our master key (pinned, trusted) and
    /// this device.
    public struct Signers: Sendable {
        public let userID: String
        /// Our trusted master key (32 bytes), when we have one.
        public let masterKey: [UInt8]?
        public let deviceID: String
        /// This device's Ed25519 key (32 bytes).
        public let deviceKey: [UInt8]

        public init(userID: String, masterKey: [UInt8]?, deviceID: String, deviceKey: [UInt8]) {
            self.userID = userID
            self.masterKey = masterKey
            self.deviceID = deviceID
            self.deviceKey = deviceKey
        }
    }

    /// Refused unless `key` is this backup's key and `auth_data` carries a valid signature by
    /// our trusted master key or by this device.
    public func checkTrusted(key: MegolmBackupKey, signers: Signers) throws {
        guard ConstantTime.equal(key.publicKey, publicKey) else {
            throw MegolmBackupRefusal("the key backup on the homeserver is not the one our recovery key opens (another public key)")
        }
        if let master = signers.masterKey,
           JSONSigning.verify(authData, userID: signers.userID, keyID: UnpaddedBase64.encode(master), publicKey: master) {
            return
        }
        if JSONSigning.verify(authData, userID: signers.userID, keyID: signers.deviceID, publicKey: signers.deviceKey) { return }
        throw MegolmBackupRefusal("the key backup on the homeserver is not signed by your verified identity")
    }

    /// The `auth_data` of a new backup for `key`, signed by our master key and by this device
    /// (`deviceSign` signs bytes with the device's Ed25519 key).
    public static func authData(key: MegolmBackupKey, userID: String, master: Ed25519KeyPair, deviceID: String,
                                deviceSign: ([UInt8]) throws -> [UInt8]) throws -> JSONValue {
        let unsigned: JSONValue = ["public_key": .string(key.publicKeyBase64)]
        let bytes = try JSONSigning.signedBytes(of: unsigned)
        let deviceSignature = try deviceSign(bytes)
        let masterSignature = try master.sign(bytes)
        return [
            "public_key": .string(key.publicKeyBase64),
            "signatures": [userID: .object([
                "ed25519:\(UnpaddedBase64.encode(master.publicKey))": .string(UnpaddedBase64.encode(masterSignature)),
                "ed25519:\(deviceID)": .string(UnpaddedBase64.encode(deviceSignature)),
            ])],
        ]
    }
}
