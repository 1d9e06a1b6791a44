import Foundation
import ThreadModel

/// The endpoints of the recovery-key flow: the account's account data (where secret storage
/// keeps its key descriptions and encrypted secrets) and `/keys/signatures/upload` (where a
/// cross-signing signature of our device goes). Blocking, off the UI thread.
extension MatrixClient {
    /// The content of the account-data event `type` of `userID` (`GET
    /// /user/{userId}/account_data/{type}`), or nil when the account has none.
    public func accountData(_ type: String, of userID: String) throws -> JSONValue? {
        do {
            return try request("GET", ["user", userID, "account_data", type])
        } catch let error as MatrixError where error.errcode == "M_NOT_FOUND" {
            return nil
        }
    }

    /// Uploads signatures of keys (`POST /keys/signatures/upload`): `body` is
    /// `{"<user id>": {"<device id or key id>": <signed object>}}`. The server answers 200 even
    /// when it refused some; those come back as `failures`, turned into an error here.
    public func uploadSignatures(_ body: JSONValue) throws {
        let answer = try request("POST", ["keys", "signatures", "upload"], body: body)
        guard let failures = answer["failures"]?.object, !failures.isEmpty else { return }
        let reasons = failures.values.flatMap { ($0.object ?? [:]).values }.compactMap { $0["error"]?.string ?? $0["errcode"]?.string }
        let said = reasons.isEmpty ? "" : ": " + VisibleText.escape(reasons.prefix(3).joined(separator: "; "))
        throw MatrixError(.server(status: 200, errcode: failures.values.first?.object?.values.first?["errcode"]?.string),
                          "\(homeserver.absoluteString) refused the signature\(said)")
    }
}
