import Foundation
import MatrixCrypto
import ThreadModel

/// Our device verified with the account's recovery key (`RecoveryKeyVerification`): the
/// requests around its pure steps, and what it leaves in the crypto store.
extension MatrixDeviceCrypto {
    /// Our cross-signing private keys, from secret storage (id `own`).
    static let crossSigningKeys = CryptoStoreCollection<CrossSigningKeys>("cross-signing-keys")
    /// Pinned master keys of users, ours among them (id `trust`).
    static let crossSigningTrust = CryptoStoreCollection<CrossSigningTrust>("cross-signing-trust")

    /// Opens the account's secret storage with `secret`, checks the cross-signing keys in it
    /// against the published identity and signs this device with them. Nothing is uploaded
    /// before the secret has opened secret storage, except this device's own keys when they were
    /// not up yet (the signature needs them on the server).
    func verify(with secret: RecoveryKeyVerification.Secret, client: MatrixClient) throws -> RecoveryKeyVerification.Outcome {
        let defaultKeyType = SecretStorageKeyDescription.defaultKeyEventType
        guard let pointer = try client.accountData(defaultKeyType, of: userID) else { throw RecoveryKeyVerification.Refusal.noSecretStorage }
        let keyID = try SecretStorageKeyDescription.defaultKeyID(from: pointer)
        var accountData = [defaultKeyType: pointer]
        for type in [SecretStorageKeyDescription.eventType(keyID: keyID), CrossSigningKeys.masterSecretName,
                     CrossSigningKeys.selfSigningSecretName, CrossSigningKeys.userSigningSecretName] {
            accountData[type] = try client.accountData(type, of: userID)
        }
        let keys = try RecoveryKeyVerification.crossSigningKeys(secret: secret, accountData: accountData, userID: userID)
        // The key backup's key, when the account keeps one: a broken one leaves the backup unused, not the device unverified.
        accountData[MegolmBackupKey.secretName] = try? client.accountData(MegolmBackupKey.secretName, of: userID)
        let backupKey = try? RecoveryKeyVerification.backupKey(secret: secret, accountData: accountData)
        if !deviceKeysUploaded { try uploadKeys(client: client) }
        let plan = try RecoveryKeyVerification.plan(keys: keys, keysQuery: client.queryKeys(users: [userID]), account: account,
                                                    deviceID: deviceID)
        if !plan.alreadySigned { try client.uploadSignatures(plan.signatures) }
        // Entering the recovery key is accepting the identity it opens, even one that replaced
        // an earlier pin.
        var trust = try store.value("trust", in: Self.crossSigningTrust) ?? CrossSigningTrust()
        trust.acceptChange(to: plan.identity)
        var changed = try store.value("changed", in: MatrixRoomKeys.changedIdentities) ?? []
        changed.remove(userID)
        try store.write { batch in
            try batch.put(keys, id: "own", in: Self.crossSigningKeys)
            try batch.put(trust, id: "trust", in: Self.crossSigningTrust)
            try batch.put(changed, id: "changed", in: MatrixRoomKeys.changedIdentities)
            try batch.put(true, id: "cross-signed", in: Self.deviceFlags)
            if let backupKey { try batch.put(backupKey, id: "key", in: MatrixRoomKeys.backupKey) }
        }
        return RecoveryKeyVerification.Outcome(deviceID: deviceID, masterKey: plan.identity.master.publicKeyBase64,
                                               alreadySigned: plan.alreadySigned)
    }

    /// Whether this device was cross-signed with the recovery key (`verify(with:client:)`).
    var isCrossSigned: Bool { (try? store.value("cross-signed", in: Self.deviceFlags)) == true }
}
