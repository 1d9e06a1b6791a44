import Foundation
import MatrixCrypto
import ThreadModel

/// The backup key read from secret storage alongside the cross-signing keys, when the account
/// keeps one there (`m.megolm_backup.v1`), so that this device restores room keys from the
/// account's key backup.
extension RecoveryKeyVerification {
    /// The backup key in `accountData` opened with `secret`; nil when the account keeps none.
    /// Throws when it is there but does not open or is not a key.
    static func backupKey(secret: Secret, accountData: [String: JSONValue]) throws -> MegolmBackupKey? {
        guard let content = accountData[MegolmBackupKey.secretName] else { return nil }
        let description = try SecretStorageKeyDescription.defaultKey(in: accountData)
        let key: SecretStorageKey
        switch secret {
        case .recoveryKey(let typed): key = try SecretStorageKey(recoveryKey: RecoveryKey(typed: typed), description: description)
        case .passphrase(let typed): key = try SecretStorageKey(passphrase: typed, description: description)
        }
        return try MegolmBackupKey(secret: key.decryptSecret(named: MegolmBackupKey.secretName, eventContent: content))
    }
}
