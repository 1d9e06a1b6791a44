import Foundation
import ThreadModel

/// The endpoints that set cross-signing up for an account (`keys setup`): the public keys
/// uploaded (`POST /keys/device_signing/upload`, behind user-interactive auth by password when
/// the server asks for it) and account data written (secret storage). Blocking.
extension MatrixClient {
    /// Why the cross-signing keys were not uploaded, when the server asked for a way of
    /// authenticating we do not offer.
    struct InteractiveAuthRefusal: Error, CustomStringConvertible {
        let description: String
    }

    /// Uploads our cross-signing public keys. A server that wants the person to authenticate
    /// first (401 with `flows`) gets the password `password()` supplies (asked only then), with
    /// the session the server named; the password is sent once, over this request only.
    func uploadCrossSigningKeys(_ keys: JSONValue, userID: String, password: () throws -> String) throws {
        let url = try url(["keys", "device_signing", "upload"], query: [:])
        var headers = ["Content-Type: application/json"]
        if let accessToken, MatrixGrammar.isAccessToken(accessToken) { headers.append("Authorization: Bearer \(accessToken)") }
        let (data, status, _) = try exchange(url, method: "POST", headers: headers, body: keys.serialized(),
                                             limit: MatrixAnswerLimit.standard, deadline: 20)
        if (200..<300).contains(status) { return }
        let answer = try? JSONValue(parsing: data)
        guard status == 401, let flows = answer?["flows"]?.array else { throw Self.serverError(status: status, json: answer) }
        let offersPassword = flows.contains { $0["stages"]?.array == [.string("m.login.password")] }
        guard offersPassword else {
            let stages = Set(flows.flatMap { $0["stages"]?.array?.compactMap(\.string) ?? [] }).sorted()
            throw InteractiveAuthRefusal(description: """
                \(homeserver.absoluteString) asks to confirm the upload in a way this client does not offer \
                (\(VisibleText.escape(stages.joined(separator: ", ")))); set up recovery in Element instead
                """)
        }
        var body = keys.object ?? [:]
        var auth: [String: JSONValue] = [
            "type": "m.login.password", "identifier": ["type": "m.id.user", "user": .string(userID)], "password": .string(try password()),
        ]
        if let session = answer?["session"]?.string { auth["session"] = .string(session) }
        body["auth"] = .object(auth)
        do {
            _ = try request("POST", ["keys", "device_signing", "upload"], body: .object(body))
        } catch let error as MatrixError where error.kind == .server(status: 401, errcode: "M_FORBIDDEN") || error.kind == .server(status: 401, errcode: nil) {
            throw InteractiveAuthRefusal(description: "\(homeserver.absoluteString) did not accept the password")
        }
    }

    /// Sets the account-data event `type` of `userID` to `content` (`PUT /user/{userId}/account_data/{type}`).
    func setAccountData(_ type: String, of userID: String, to content: JSONValue) throws {
        _ = try request("PUT", ["user", userID, "account_data", type], body: content)
    }
}
