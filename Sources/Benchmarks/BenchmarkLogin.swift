import Foundation
import CommentTUI
import SynapseFixture

/// Logging a benchmark's client in as `comment-tui login` would: a device of its own (a
/// password login), written where the client reads its accounts.
enum BenchmarkLogin {
    /// A new device's access token and id for `user` (a password login).
    static func newDevice(of user: String, password: String, on homeserver: URL) throws -> (user: String, token: String, device: String) {
        let anonymous = MatrixTestClient(baseURL: homeserver, accessToken: nil, userID: nil)
        let answer = try anonymous.call("POST", "/_matrix/client/v3/login", body: [
            "type": "m.login.password", "identifier": ["type": "m.id.user", "user": user], "password": password,
        ])
        guard let token = answer["access_token"] as? String, let device = answer["device_id"] as? String else {
            throw BenchmarkFailure("the login answer had no token")
        }
        return (user, token, device)
    }

    /// Writes the account where `comment-tui` reads it (`config`, the `XDG_CONFIG_HOME`).
    static func write(_ login: (user: String, token: String, device: String), homeserver: URL, config: String) throws {
        let json: [String: String] = ["user_id": login.user, "homeserver": homeserver.absoluteString,
                                      "access_token": login.token, "device_id": login.device]
        let account = try JSONDecoder().decode(MatrixAccounts.Account.self, from: JSONSerialization.data(withJSONObject: json))
        var accounts = try MatrixAccounts(path: "\(config)/comment-tui/accounts.json")
        accounts.add(account)
        try accounts.save()
    }
}
