import Foundation
import ThreadModel

/// The accounts logged in on this machine, kept in `$XDG_CONFIG_HOME/comment-tui/accounts.json`.
///
/// The file holds access tokens, so it is created mode 0600 in a 0700 folder, written whole to
/// a temporary file and renamed, and never printed: errors name the file, not its content.
public struct MatrixAccounts: Sendable {
    /// One logged-in account.
    public struct Account: Codable, Equatable, Sendable {
        public var userID: String
        public var homeserver: String
        public var accessToken: String
        public var deviceID: String

        enum CodingKeys: String, CodingKey {
            case userID = "user_id", homeserver, accessToken = "access_token", deviceID = "device_id"
        }
    }

    private struct Stored: Codable { var accounts: [Account] }

    /// Where the file is.
    public let path: String
    /// The accounts, in the order they logged in.
    public private(set) var accounts: [Account]

    /// The file for an environment: `$XDG_CONFIG_HOME`, else `$HOME/.config`.
    public static func path(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/comment-tui/accounts.json" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.config/comment-tui/accounts.json" }
        return nil
    }

    /// Reads the accounts (none when the file does not exist yet).
    public init(path: String) throws {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        let bytes: [UInt8]?
        do {
            // The folder is checked (ours, writable by no one else) only once it exists.
            bytes = FileManager.default.fileExists(atPath: folder)
                ? try PrivateDirectory(folder).read((path as NSString).lastPathComponent) : nil
        } catch {
            throw CommandFailure("cannot read the accounts file: \(VisibleText.escape("\(error)"))")
        }
        guard let bytes else {
            accounts = []
            return
        }
        do {
            accounts = try JSONDecoder().decode(Stored.self, from: Data(bytes)).accounts
        } catch {
            throw CommandFailure("\(VisibleText.escape(path)) does not read as an accounts file; log in again after moving it aside")
        }
    }

    /// Adds an account, replacing one with the same user id.
    public mutating func add(_ account: Account) {
        accounts.removeAll { $0.userID == account.userID }
        accounts.append(account)
    }

    /// Forgets an account.
    public mutating func remove(userID: String) { accounts.removeAll { $0.userID == userID } }

    /// The account to use: the one named by `--as @user:server`, else the only one.
    public func choose(_ userID: String?) throws -> Account {
        if let userID {
            guard let account = accounts.first(where: { $0.userID == userID }) else {
                throw CommandFailure("not logged in as \(VisibleText.escape(userID))\(listing); log in with: comment-tui login --homeserver URL --user NAME")
            }
            return account
        }
        switch accounts.count {
        case 0: throw CommandFailure("not logged in to a homeserver; log in with: comment-tui login --homeserver URL --user NAME")
        case 1: return accounts[0]
        default: throw CommandFailure("several accounts are logged in; choose one with --as\(listing)")
        }
    }

    private var listing: String {
        accounts.isEmpty ? "" : " (logged in: " + accounts.map { VisibleText.escape($0.userID) }.joined(separator: ", ") + ")"
    }

    /// Writes the file: 0600, whole or not at all.
    public func save() throws {
        let folder = (path as NSString).deletingLastPathComponent
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(Stored(accounts: accounts))
        // Created 0600 before a byte is written, so the token is never readable by others, and
        // never written through a link planted where the file goes.
        let directory = try PrivateDirectory(folder)
        try directory.replace((path as NSString).lastPathComponent, with: Array(data), synchronized: true)
        // A crash mid-write leaves a temporary file holding tokens: gone at the next save.
        try? directory.removeLeftovers(of: (path as NSString).lastPathComponent)
    }
}
