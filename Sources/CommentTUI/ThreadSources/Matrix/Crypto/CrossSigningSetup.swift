import Foundation
import MatrixCrypto
import ThreadModel

/// Cross-signing set up for an account that has none, as Element's "Set up recovery" does: new
/// master, self-signing and user-signing keys; secret storage with a new key (its recovery key
/// shown to the person once) holding the three private keys; our device signed by the new
/// self-signing key. Afterwards other devices verify with the recovery key
/// (`RecoveryKeyVerification`, Element's "Verify with Recovery Key").
///
/// Its steps are pure (`checkNoneYet`, then `plan`); `MatrixDeviceCrypto.setUpCrossSigning`
/// does the requests around them and keeps the keys in the device's crypto store.
struct CrossSigningSetup {
    /// Why nothing was set up, in words a person can act on.
    struct Refusal: Error, Equatable, CustomStringConvertible {
        let reason: String
        init(_ reason: String) { self.reason = reason }
        var description: String { reason }

        static let alreadyCrossSigning = Refusal("""
            this account has cross-signing already (set up here before, or in Element or another client): \
            verify this device with its recovery key instead: comment-tui verify --recovery-key
            """)
        static let alreadySecretStorage = Refusal("""
            this account has secret storage already (set up in Element or another client): verify this \
            device with its recovery key instead: comment-tui verify --recovery-key
            """)
    }

    /// Everything to upload, made before anything is.
    struct Plan {
        let keys: CrossSigningKeys
        /// The new secret storage key; its `recoveryKey` is what the person keeps.
        let storageKey: SecretStorageKey
        /// The new identity (what `/keys/device_signing/upload` takes).
        let identity: CrossSigningIdentity
        /// The `/keys/device_signing/upload` body (without `auth`).
        let upload: JSONValue
        /// The secret storage account data, in the order to write it: the key's description and
        /// the three secrets; the default-key pointer last (`defaultKey`), once all it points to is there.
        let accountData: [(type: String, content: JSONValue)]
        let defaultKey: JSONValue
        /// The `/keys/signatures/upload` body that cross-signs our device.
        let signatures: JSONValue
    }

    /// Throws unless the account has neither cross-signing (`keysQuery`, our user's
    /// `/keys/query` answer) nor a default secret storage key (`defaultKeyPointer`).
    static func checkNoneYet(keysQuery: JSONValue, defaultKeyPointer: JSONValue?, userID: String) throws {
        if keysQuery["master_keys"]?[userID] != nil { throw Refusal.alreadyCrossSigning }
        if defaultKeyPointer?["key"]?.string != nil { throw Refusal.alreadySecretStorage }
    }

    /// What to upload for `keys` (new ones, or those of a setup that stopped half-way), with a
    /// new secret storage key, our device (`account`, `deviceID`) signed.
    static func plan(keys: CrossSigningKeys, deviceID: String, account: OlmAccount, random: inout some RandomSource) throws -> Plan {
        let userID = keys.userID
        let keyID = try newKeyID(random: &random)
        let (storageKey, description) = try SecretStorageKey.generate(keyID: keyID, name: "Recovery key", random: &random)
        let identity = try keys.publicIdentity()
        var upload: [String: JSONValue] = ["master_key": identity.master.json, "self_signing_key": identity.selfSigning.json]
        if let userSigning = identity.userSigning { upload["user_signing_key"] = userSigning.json }
        let secrets = try keys.secretEventContents(for: storageKey, random: &random)
        return Plan(keys: keys, storageKey: storageKey, identity: identity, upload: .object(upload),
                    accountData: [(SecretStorageKeyDescription.eventType(keyID: keyID), description.content)]
                        + secrets.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
                    defaultKey: ["key": .string(keyID)],
                    signatures: try account.crossSigningUploadBody(keys: keys, deviceID: deviceID))
    }

    /// A key id as Element makes one: 32 letters and digits.
    static func newKeyID(random: inout some RandomSource) throws -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var id = ""
        while id.count < 32 {
            // Bytes of 248 and over are dropped, so every character is as likely as any other.
            for byte in try random.bytes(32 - id.count) where byte < 248 { id.append(alphabet[Int(byte) % alphabet.count]) }
        }
        return id
    }
}
