import Foundation
import ThreadModel

/// The endpoints of server-side key backup (`/room_keys`) and the account-data write that keeps
/// a new backup's key in secret storage. Blocking, off the UI thread.
extension MatrixClient {
    /// The current backup version (`GET /room_keys/version`), or nil when the account has none.
    public func currentBackupVersion() throws -> JSONValue? {
        do {
            return try request("GET", ["room_keys", "version"], limit: MatrixAnswerLimit.small)
        } catch let error as MatrixError where error.errcode == "M_NOT_FOUND" {
            return nil
        }
    }

    /// Creates a backup version (`POST /room_keys/version`); its version string.
    public func createBackupVersion(algorithm: String, authData: JSONValue) throws -> String {
        let answer = try request("POST", ["room_keys", "version"], body: ["algorithm": .string(algorithm), "auth_data": authData])
        guard let version = answer["version"]?.string, !version.isEmpty else {
            throw MatrixError(.malformed, "the homeserver made a key backup without saying its version")
        }
        return version
    }

    /// The backed-up sessions of `roomID` in backup `version` (`GET /room_keys/keys/{roomId}`):
    /// `{"sessions": {"<session id>": {"session_data": …, …}}}`; none when the room has none.
    /// Throws `M_NOT_FOUND` when the version is gone (a room without keys answers no sessions).
    public func backedUpRoomKeys(roomID: String, version: String) throws -> JSONValue {
        try request("GET", ["room_keys", "keys", roomID], query: ["version": version], limit: MatrixAnswerLimit.large)
    }

    /// Uploads sessions to backup `version` (`PUT /room_keys/keys`): `rooms` is
    /// `{"<room id>": {"sessions": {"<session id>": KeyBackupData}}}`.
    public func uploadRoomKeys(_ rooms: JSONValue, version: String) throws {
        try request("PUT", ["room_keys", "keys"], query: ["version": version], body: ["rooms": rooms])
    }

    /// Sets the account-data event `type` of `userID` (`PUT /user/{userId}/account_data/{type}`).
    public func putAccountData(_ type: String, of userID: String, content: JSONValue) throws {
        try request("PUT", ["user", userID, "account_data", type], body: content)
    }
}
