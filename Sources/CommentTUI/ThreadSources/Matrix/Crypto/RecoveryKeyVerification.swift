import Foundation
import MatrixCrypto
import ThreadModel

/// Verifies our device with the account's recovery key (or its passphrase), as Element's
/// "Verify with Recovery Key" does: the key opens the account's secret storage, which holds the
/// cross-signing keys; those, checked against the identity the server publishes, sign our
/// device. Other users' clients (Element, spec v1.18) then share room keys with it.
///
/// Its steps are pure (`crossSigningKeys`, then `plan`: from what the server holds to the
/// signature to upload); `MatrixDeviceCrypto.verify(with:client:)` does the requests around
/// them and keeps the keys in the device's crypto store.
struct RecoveryKeyVerification {
    /// What a person typed to open secret storage. Never shown.
    enum Secret: CustomStringConvertible {
        case recoveryKey(String)
        case passphrase(String)

        var description: String {
            switch self {
            case .recoveryKey: "recovery key (not shown)"
            case .passphrase: "passphrase (not shown)"
            }
        }
    }

    /// Why the device was not verified, in words a person can act on; never key bytes.
    struct Refusal: Error, Equatable, CustomStringConvertible {
        let reason: String
        init(_ reason: String) { self.reason = reason }
        var description: String { reason }

        static let noSecretStorage = Refusal("""
            this account has no secret storage: set up recovery in Element first (Settings, \
            Encryption, Set up recovery), then enter the recovery key it shows
            """)
        static let noIdentity = Refusal("""
            this account has no cross-signing identity on its homeserver: set up recovery in \
            Element first (Settings, Encryption, Set up recovery)
            """)
    }

    /// What `plan` decided.
    struct Plan {
        /// The cross-signing keys from secret storage, matching the published identity.
        let keys: CrossSigningKeys
        /// The identity the server publishes for us.
        let identity: CrossSigningIdentity
        /// The `/keys/signatures/upload` body that cross-signs our device.
        let signatures: JSONValue
        /// Whether the server already shows our device signed by this identity.
        let alreadySigned: Bool
    }

    /// What `run` did.
    struct Outcome: Equatable {
        let deviceID: String
        /// The account's master key (public, unpadded base64): the identity our device now belongs to.
        let masterKey: String
        /// The device was signed before (entering the key again changes nothing on the server).
        let alreadySigned: Bool
    }

    /// Opens secret storage with `secret` and reads our cross-signing keys from it.
    /// - Parameter accountData: the account's account data by event type (absent: none).
    static func crossSigningKeys(secret: Secret, accountData: [String: JSONValue], userID: String) throws -> CrossSigningKeys {
        guard accountData[SecretStorageKeyDescription.defaultKeyEventType] != nil else { throw Refusal.noSecretStorage }
        let description = try SecretStorageKeyDescription.defaultKey(in: accountData)
        let key: SecretStorageKey
        switch secret {
        case .recoveryKey(let typed): key = try SecretStorageKey(recoveryKey: RecoveryKey(typed: typed), description: description)
        case .passphrase(let typed): key = try SecretStorageKey(passphrase: typed, description: description)
        }
        do {
            return try CrossSigningKeys(userID: userID, secretStorage: key, accountData: accountData)
        } catch is SecretStorageRefusal where description.iv == nil {
            // A key made before the spec added its check is only found wrong here.
            throw secret.isPassphrase ? SecretStorageRefusal.wrongPassphrase : SecretStorageRefusal.wrongRecoveryKey
        }
    }

    /// Checks `keys` against `keysQuery` (our user's `/keys/query` answer), whose entry for our
    /// device must be `account`'s, and signs our device with them.
    static func plan(keys: CrossSigningKeys, keysQuery: JSONValue, account: OlmAccount, deviceID: String) throws -> Plan {
        let userID = keys.userID
        guard let identity = try CrossSigningIdentity.fromKeysQuery(keysQuery, userID: userID) else { throw Refusal.noIdentity }
        try keys.checkMatches(identity)
        let ours = try account.deviceKeys(userID: userID, deviceID: deviceID)
        guard let published = keysQuery["device_keys"]?[userID]?[deviceID] else {
            throw Refusal("the homeserver does not list this device (\(deviceID)) among your devices; log in again")
        }
        guard published["keys"]?["ed25519:\(deviceID)"] == ours["keys"]?["ed25519:\(deviceID)"],
              published["keys"]?["curve25519:\(deviceID)"] == ours["keys"]?["curve25519:\(deviceID)"] else {
            throw Refusal("the homeserver has other keys for this device (\(deviceID)) than this machine; log in again to get a new device")
        }
        return Plan(keys: keys, identity: identity, signatures: try account.crossSigningUploadBody(keys: keys, deviceID: deviceID),
                    alreadySigned: identity.hasCrossSigned(deviceKeys: published))
    }
}

extension RecoveryKeyVerification.Secret {
    var isPassphrase: Bool { if case .passphrase = self { true } else { false } }
}
