import Foundation
import MatrixCrypto
import ThreadModel

/// The secrets this device holds for secret sharing between our own devices
/// (`MatrixRoomKeys+SecretSharing`): the cross-signing seeds (kept as `crossSigningKeys`, as the
/// recovery key leaves them) and the backup key; and this device marked verified by another of
/// ours, which is what lets it ask for them.
extension MatrixDeviceCrypto {
    /// Cross-signing seeds received one by one (by secret name, unpadded base64), until all
    /// three make our `crossSigningKeys` (id `received`).
    static let receivedSeeds = CryptoStoreCollection<[String: String]>("received-cross-signing-seeds")

    /// The secret `name` as this device holds it (unpadded base64), or nil.
    func heldSecret(_ name: SharedSecret.Name) -> String? {
        switch name {
        case .backup:
            // Where the recovery key leaves it too (`MatrixRoomKeys.backupKey`, id `key`).
            return (try? store.value("key", in: MatrixRoomKeys.backupKey))?.secret
        case .master, .selfSigning, .userSigning:
            if let keys = try? store.value("own", in: Self.crossSigningKeys) {
                let pair = name == .master ? keys.master : name == .selfSigning ? keys.selfSigning : keys.userSigning
                return UnpaddedBase64.encode(pair.seed)
            }
            return (try? store.value("received", in: Self.receivedSeeds))?[name.rawValue]
        }
    }

    /// The secrets this device lacks, in the spec's order.
    var missingSecrets: [SharedSecret.Name] { SharedSecret.Name.allCases.filter { heldSecret($0) == nil } }

    /// Keeps a checked secret: the backup key as it is; a cross-signing seed with those received
    /// before, the three made our cross-signing keys once all are here.
    func keep(_ secret: SharedSecret) throws {
        guard secret.name != .backup else {
            try store.put(try MegolmBackupKey(secret: secret.base64), id: "key", in: MatrixRoomKeys.backupKey)
            return
        }
        var seeds = try store.value("received", in: Self.receivedSeeds) ?? [:]
        seeds[secret.name.rawValue] = secret.base64
        let bytes = SharedSecret.Name.crossSigning.compactMap { seeds[$0.rawValue].flatMap(UnpaddedBase64.decode) }
        guard bytes.count == 3 else {
            try store.put(seeds, id: "received", in: Self.receivedSeeds)
            return
        }
        let keys = try CrossSigningKeys(userID: userID, masterSeed: bytes[0], selfSigningSeed: bytes[1], userSigningSeed: bytes[2])
        try store.write { batch in
            try batch.put(keys, id: "own", in: Self.crossSigningKeys)
            batch.remove(id: "received", from: Self.receivedSeeds)
        }
    }

    /// The server does not show this device signed by our identity (yet: the other device
    /// uploads its signature as its verification ends).
    static let notSignedYet = RecoveryKeyVerification.Refusal("this device is not signed by your identity on the server yet")

    /// This device verified by another of ours (its end of SAS, once the other device signed it):
    /// the identity of `masterKey` (the one the verification showed) must be the one the server
    /// publishes for us and must have signed this device there. It is pinned as ours and the
    /// device counts as cross-signed: it then asks our devices for the secrets it lacks, and
    /// for room keys. Throws, changing nothing, when the server shows otherwise.
    /// - Parameter answer: the server's `/keys/query` answer for our user (asked unlocked).
    func acceptVerificationByOwnDevice(masterKey: String, keysQuery answer: JSONValue) throws {
        guard let identity = try CrossSigningIdentity.fromKeysQuery(answer, userID: userID) else {
            throw RecoveryKeyVerification.Refusal.noIdentity
        }
        guard ConstantTime.equal(Array(identity.master.publicKeyBase64.utf8), Array(masterKey.utf8)) else {
            throw RecoveryKeyVerification.Refusal("the identity the server publishes for you is not the one the verification showed")
        }
        guard let published = answer["device_keys"]?[userID]?[deviceID], identity.hasCrossSigned(deviceKeys: published) else {
            throw Self.notSignedYet
        }
        var trust = try store.value("trust", in: Self.crossSigningTrust) ?? CrossSigningTrust()
        trust.acceptChange(to: identity)
        var changed = try store.value("changed", in: MatrixRoomKeys.changedIdentities) ?? []
        changed.remove(userID)
        try store.write { batch in
            try batch.put(trust, id: "trust", in: Self.crossSigningTrust)
            try batch.put(changed, id: "changed", in: MatrixRoomKeys.changedIdentities)
            try batch.put(true, id: "cross-signed", in: Self.deviceFlags)
        }
    }
}
