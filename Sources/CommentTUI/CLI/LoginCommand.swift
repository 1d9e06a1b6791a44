import Foundation
import ThreadModel

/// `comment-tui login --homeserver URL --user NAME [--password-stdin]`: signs in to a Matrix
/// homeserver and keeps the session in accounts.json (mode 0600); a session kept before for the
/// same account is logged out.
enum LoginCommand {
    static let usage = """
    Usage: comment-tui login --homeserver URL --user NAME [--password-stdin]
           comment-tui login --user @NAME:SERVER [--password-stdin]

    Logs in to a Matrix homeserver with a password (asked for without echo, or read from
    standard input with --password-stdin) and keeps the session in
    $XDG_CONFIG_HOME/comment-tui/accounts.json (readable by you only). The homeserver may be
    given as a server name (example.org: its .well-known/matrix/client says where the
    homeserver is) or a URL; without a scheme, https is used. Logging in again as the same
    account logs the earlier session out. Several accounts may be logged in; pick one with
    --as @user:server when opening a room.
    """

    static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, options: ["--homeserver", "--user"], flags: ["--password-stdin"], usage: usage)
        if try Verb.printsHelp(parsed, usage: usage, context: context) { return 0 }
        guard let user = parsed.value("--user"), parsed.positionals.isEmpty,
              let server = parsed.value("--homeserver") ?? serverName(of: user) else {
            throw CommandFailure.usage("login needs --homeserver URL and --user NAME", usage)
        }
        // Before the password is asked for: a wrong address fails in seconds, with nothing typed in vain.
        let homeserver: URL
        do {
            homeserver = try MatrixDiscovery.homeserver(typed: server)
        } catch let error as MatrixError {
            throw CommandFailure(error.message)
        }
        let password: String
        if parsed.flags.contains("--password-stdin") {
            password = try context.readInput("the password", limit: 64 << 10, limitName: "64 KiB", outcome: "not logged in").trimmingCharacters(in: .newlines)
        } else {
            guard context.inputIsTerminal else {
                throw CommandFailure("no terminal to ask for the password on; use --password-stdin")
            }
            context.writeError("Password for \(VisibleText.escape(user)) on \(VisibleText.escape(homeserver.absoluteString)): ")
            guard let typed = try context.readSecret() else { throw CommandFailure("no password given") }
            password = typed
        }
        guard let path = MatrixAccounts.path(environment: context.environment) else {
            throw CommandFailure("neither XDG_CONFIG_HOME nor HOME is set: nowhere to keep the session")
        }
        var accounts = try MatrixAccounts(path: path)
        let session: MatrixClient.Session
        do {
            session = try MatrixClient(homeserver: homeserver).login(user: user, password: password)
        } catch let error as MatrixError {
            throw CommandFailure(error.message)
        }
        let earlier = accounts.accounts.first { $0.userID == session.userID && $0.accessToken != session.accessToken }
        accounts.add(.init(userID: session.userID, homeserver: homeserver.absoluteString,
                           accessToken: session.accessToken, deviceID: session.deviceID))
        do {
            try accounts.save()
        } catch {
            throw CommandFailure("logged in, but could not save the session in \(VisibleText.escape(path)): \(error)")
        }
        try context.print("logged in as \(VisibleText.escape(session.userID))" + (earlier.map(logOut) ?? ""))
        return 0
    }

    /// The server name of a full user id (`@ann:example.org` → `example.org`), for discovery.
    static func serverName(of user: String) -> String? {
        guard MatrixGrammar.isUserID(user), let colon = user.firstIndex(of: ":") else { return nil }
        return String(user[user.index(after: colon)...])
    }

    /// Ends the session this account had here before, now replaced: two live sessions of one
    /// account on one machine, one of them forgotten, would stay listed on the server for good.
    private static func logOut(_ earlier: MatrixAccounts.Account) -> String {
        let device = earlier.deviceID.isEmpty ? "" : " (device \(VisibleText.escape(earlier.deviceID)))"
        guard let url = URL(string: earlier.homeserver) else { return "; the earlier session\(device) could not be logged out" }
        do {
            try MatrixClient(homeserver: url, accessToken: earlier.accessToken).logout()
            return "; the earlier session\(device) was logged out"
        } catch let error as MatrixError where error.errcode == "M_UNKNOWN_TOKEN" {
            return ""
        } catch let error as MatrixError {
            return "; the earlier session\(device) could not be logged out (\(error.message)); end it from another client"
        } catch {
            return "; the earlier session\(device) could not be logged out"
        }
    }
}
