import Foundation
import MatrixCrypto
import ThreadModel

/// Making a new key backup for the account, as Element's "Set up recovery" does: a new backup
/// key, its private half kept in secret storage (`m.megolm_backup.v1`) and in this device's
/// store, its `auth_data` signed by our master key and by this device, then our own sessions
/// uploaded to it. For an account whose cross-signing and secret storage are set up (this
/// device holds the cross-signing keys: entered with the recovery key, or made here).
extension MatrixRoomKeys {
    /// Why a backup was not made, in words.
    struct BackupCreationRefusal: Error, CustomStringConvertible {
        let reason: String
        var description: String { "no key backup was made: \(reason)" }
    }

    /// Creates the backup with `secretStorage` (the account's default secret storage key) and
    /// returns its version. Blocking (requests); call unlocked.
    @discardableResult
    func createBackup(secretStorage: SecretStorageKey) throws -> String {
        backup.work.lock()
        let made: (key: MegolmBackupKey, version: String)
        do {
            defer { backup.work.unlock() }
            let (key, authData, secretContent) = try lock.withLock { () -> (MegolmBackupKey, JSONValue, JSONValue) in
                guard let crossSigning = try device.store.value("own", in: MatrixDeviceCrypto.crossSigningKeys) else {
                    throw BackupCreationRefusal(reason: "this device holds no cross-signing keys (enter the recovery key first)")
                }
                let key = try MegolmBackupKey.generate(random: &device.random)
                let account = device.account
                let authData = try MegolmBackupVersion.authData(key: key, userID: device.userID, master: crossSigning.master,
                                                                deviceID: device.deviceID, deviceSign: account.sign)
                let secret = try secretStorage.encryptedEventContent(secret: key.secret, named: MegolmBackupKey.secretName,
                                                                     random: &device.random)
                return (key, authData, secret)
            }
            // The secret first: a backup the recovery key cannot open would be of no use to
            // our other devices; a secret without its backup is overwritten by the next try.
            try client.putAccountData(MegolmBackupKey.secretName, of: device.userID, content: secretContent)
            let version: String
            do {
                version = try client.createBackupVersion(algorithm: MegolmBackupKey.algorithm, authData: authData)
            } catch {
                // The answer may be lost with the backup made: then the current one is ours.
                guard let made = currentBackupVersion(ifMadeWith: key) else { throw error }
                version = made
            }
            try lock.withLock { try device.store.put(key, id: "key", in: Self.backupKey) }
            let described = try MegolmBackupVersion(json: ["version": .string(version), "algorithm": .string(MegolmBackupKey.algorithm),
                                                           "auth_data": authData])
            backup.remember(.trusted(described, key), for: key.publicKeyBase64)
            made = (key, version)
        }
        backUpOwnSessions()
        return made.version
    }

    /// The current backup's version when it is the one made with `key` (its public key ours,
    /// signed by our trusted identity); nil otherwise or when it cannot be read. Call unlocked.
    func currentBackupVersion(ifMadeWith key: MegolmBackupKey) -> String? {
        guard let answer = try? client.currentBackupVersion(), let current = try? MegolmBackupVersion(json: answer),
              (try? current.checkTrusted(key: key, signers: backupSigners())) != nil else { return nil }
        return current.version
    }
}
