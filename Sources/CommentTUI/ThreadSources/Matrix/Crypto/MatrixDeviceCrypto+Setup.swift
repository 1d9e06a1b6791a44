import Foundation
import MatrixCrypto
import ThreadModel

/// Cross-signing and secret storage set up from this device for an account that has neither
/// (`CrossSigningSetup`): the requests around its pure steps, and what it leaves in the crypto
/// store (the same as entering the recovery key would: the keys, our pinned identity, the
/// device marked cross-signed).
extension MatrixDeviceCrypto {
    /// What `setUpCrossSigning` did.
    struct SetupOutcome {
        /// The key the person keeps; shown once, never stored or logged.
        let recoveryKey: RecoveryKey
        /// The new master key (public, unpadded base64).
        let masterKey: String
        /// The new secret storage key, which the key backup's key goes under (`createBackup`).
        let storageKey: SecretStorageKey
    }

    /// Sets cross-signing up. Refused (nothing written) when the account has cross-signing or
    /// secret storage already, unless it is ours from a setup here that stopped half-way (its
    /// keys kept as `pending-setup` before anything left): that one is finished, with a new
    /// secret storage key. The secrets go into account data before the keys are published, and
    /// the default-key pointer last, so an account never points at storage that lacks them.
    /// `password` is asked only when the server wants it for the upload.
    func setUpCrossSigning(client: MatrixClient, password: () throws -> String) throws -> SetupOutcome {
        let pointer = try client.accountData(SecretStorageKeyDescription.defaultKeyEventType, of: userID)
        let query = try client.queryKeys(users: [userID])
        let pending = try store.value("pending-setup", in: Self.crossSigningKeys)
        let published = try CrossSigningIdentity.fromKeysQuery(query, userID: userID)
        let publishedByUs = pending.map { keys in published.map { ConstantTime.equal($0.master.publicKey, keys.master.publicKey) } ?? false } ?? false
        if !publishedByUs { try CrossSigningSetup.checkNoneYet(keysQuery: query, defaultKeyPointer: pointer, userID: userID) }
        if !deviceKeysUploaded { try uploadKeys(client: client) }
        let keys = try pending ?? CrossSigningKeys.generate(userID: userID, random: &random)
        // Kept before anything leaves: a setup that stops after publishing them can still finish.
        if pending == nil { try store.put(keys, id: "pending-setup", in: Self.crossSigningKeys) }
        let plan = try CrossSigningSetup.plan(keys: keys, deviceID: deviceID, account: account, random: &random)
        for (type, content) in plan.accountData { try client.setAccountData(type, of: userID, to: content) }
        if !publishedByUs { try client.uploadCrossSigningKeys(plan.upload, userID: userID, password: password) }
        try client.uploadSignatures(plan.signatures)
        try client.setAccountData(SecretStorageKeyDescription.defaultKeyEventType, of: userID, to: plan.defaultKey)

        var trust = try store.value("trust", in: Self.crossSigningTrust) ?? CrossSigningTrust()
        trust.acceptChange(to: plan.identity)
        try store.write { batch in
            try batch.put(plan.keys, id: "own", in: Self.crossSigningKeys)
            try batch.put(trust, id: "trust", in: Self.crossSigningTrust)
            try batch.put(true, id: "cross-signed", in: Self.deviceFlags)
            batch.remove(id: "pending-setup", from: Self.crossSigningKeys)
        }
        // The key backup is made by the caller once the keys are stored (`createBackup` signs
        // with them): a backup that fails then leaves the recovery key to show all the same.
        return SetupOutcome(recoveryKey: plan.storageKey.recoveryKey, masterKey: plan.identity.master.publicKeyBase64,
                            storageKey: plan.storageKey)
    }
}
