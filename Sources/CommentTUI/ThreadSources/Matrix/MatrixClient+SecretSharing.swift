import Foundation
import ThreadModel

/// What secret sharing between our devices asks the server: the current key backup's public
/// key, which a backup key sent by another of our devices must match. Blocking, off the UI thread.
extension MatrixClient {
    /// The `auth_data.public_key` of the account's current key backup (`GET /room_keys/version`),
    /// or nil when the account has no backup. A backup of another algorithm has no such key: nil.
    public func publishedBackupPublicKey() throws -> String? {
        let answer: JSONValue
        do {
            answer = try request("GET", ["room_keys", "version"])
        } catch let error as MatrixError where error.errcode == "M_NOT_FOUND" {
            return nil
        }
        guard answer["algorithm"]?.string == "m.megolm_backup.v1.curve25519-aes-sha2" else { return nil }
        return answer["auth_data"]?["public_key"]?.string
    }
}
