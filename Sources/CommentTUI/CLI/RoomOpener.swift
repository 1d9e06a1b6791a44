import Foundation
import ThreadModel

/// Opens a room named on the command line as the logged-in account (`--as @user:server`, else
/// the only one), with errors worded for the command line.
enum RoomOpener {
    /// The account's client and the room's source; `follows` starts the sync loop and opens from
    /// the cache (unless `usesCache` is false); the verbs read the room fresh and leave the cache be.
    /// `joinsEncrypted` takes an invite to an encrypted room (`--join-encrypted`).
    static func open(_ address: MatrixRoomAddress, as userID: String?, context: CommandContext, follows: Bool,
                     usesCache: Bool = true, joinsEncrypted: Bool = false,
                     accountSync: MatrixAccountSync? = nil) throws -> MatrixThreadSource {
        let account = try account(userID, context: context)
        guard let url = URL(string: account.homeserver) else {
            throw CommandFailure("the saved homeserver of \(VisibleText.escape(account.userID)) is not a URL; log in again")
        }
        let client = MatrixClient(homeserver: url, accessToken: account.accessToken)
        do {
            return try MatrixThreadSource(client: client, address: address, me: account.userID,
                                          environment: context.environment, follows: follows, usesCache: follows && usesCache,
                                          joinsEncrypted: joinsEncrypted,
                                          accountSync: accountSync ?? keyedSync(client: client, account: account, context: context))
        } catch let error as MatrixError {
            throw CommandFailure("\(VisibleText.escape(address.identifier)): \(error.message)")
        }
    }

    /// For a verb (`post`, `render`, `export`, `check`): a sync, never started, that carries the
    /// account's room keys, so the room's opening takes the keys sent to this device and its
    /// encrypted messages read, and what is posted goes encrypted. Without the keys (another
    /// comment-tui holds the store) it says why on standard error, and encrypted messages show
    /// as unreadable; nothing is posted in the clear.
    private static func keyedSync(client: MatrixClient, account: MatrixAccounts.Account, context: CommandContext) -> MatrixAccountSync {
        let sync = MatrixAccountSync(client: client)
        sync.roomKeys = MatrixRoomKeys.open(client: client, account: account, environment: context.environment) { complaint in
            context.writeError("comment-tui: " + VisibleText.escape(complaint) + "\n")
        }
        return sync
    }

    /// The account to use for `--as` (a user id) or the only one.
    static func account(_ userID: String?, context: CommandContext) throws -> MatrixAccounts.Account {
        guard let path = MatrixAccounts.path(environment: context.environment) else {
            throw CommandFailure("neither XDG_CONFIG_HOME nor HOME is set: no accounts to use")
        }
        return try MatrixAccounts(path: path).choose(userID)
    }

    /// The room a locator names, or nil for a file; a malformed room locator is an error.
    static func address(_ locator: String) throws -> MatrixRoomAddress? {
        if let address = MatrixRoomAddress(locator: locator) { return address }
        if let problem = MatrixRoomAddress.problem(in: locator) {
            throw CommandFailure("'\(VisibleText.escape(locator))' is not a post: \(problem)")
        }
        if MatrixRoomAddress.looksLikeRoom(locator) {
            throw CommandFailure("'\(VisibleText.escape(locator))' is not a room: use matrix:!id:server, matrix:#alias:server or a https://matrix.to/#/ link")
        }
        return nil
    }
}
