import Foundation
import ThreadModel

/// `comment-tui login --homeserver URL --user NAME [--password-stdin]`: signs in to a Matrix
/// homeserver and keeps the session in accounts.json (mode 0600).
enum LoginCommand {
    static let usage = """
    Usage: comment-tui login --homeserver URL --user NAME [--password-stdin]

    Logs in to a Matrix homeserver with a password (asked for without echo, or read from
    standard input with --password-stdin) and keeps the session in
    $XDG_CONFIG_HOME/comment-tui/accounts.json (readable by you only). Several accounts may
    be logged in; pick one with --as @user:server when opening a room.
    """

    static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, options: ["--homeserver", "--user"], flags: ["--password-stdin"], usage: usage)
        if try Verb.printsHelp(parsed, usage: usage, context: context) { return 0 }
        guard let server = parsed.value("--homeserver"), let user = parsed.value("--user"), parsed.positionals.isEmpty else {
            throw CommandFailure.usage("login needs --homeserver URL and --user NAME", usage)
        }
        let homeserver = try homeserverURL(server)
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
        accounts.add(.init(userID: session.userID, homeserver: homeserver.absoluteString,
                           accessToken: session.accessToken, deviceID: session.deviceID))
        do {
            try accounts.save()
        } catch {
            throw CommandFailure("logged in, but could not save the session in \(VisibleText.escape(path)): \(error)")
        }
        try context.print("logged in as \(VisibleText.escape(session.userID))")
        return 0
    }

    /// A homeserver URL from what was typed (`matrix.org` means `https://matrix.org`).
    static func homeserverURL(_ text: String) throws -> URL {
        let full = text.contains("://") ? text : "https://" + text
        guard let url = URL(string: full), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw CommandFailure("not a homeserver URL: \(VisibleText.escape(text))")
        }
        return url
    }
}
