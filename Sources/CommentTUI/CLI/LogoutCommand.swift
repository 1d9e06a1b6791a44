import Foundation
import ThreadModel

/// `comment-tui logout [--as @user:server]`: ends the session on the server and forgets it here.
enum LogoutCommand {
    static let usage = """
    Usage: comment-tui logout [--as @user:server]

    Ends a Matrix session on its homeserver and removes it from accounts.json. With one
    account logged in, --as is not needed.
    """

    static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, options: ["--as"], usage: usage)
        if try Verb.printsHelp(parsed, usage: usage, context: context) { return 0 }
        guard parsed.positionals.isEmpty else { throw CommandFailure.usage("logout takes no arguments", usage) }
        guard let path = MatrixAccounts.path(environment: context.environment) else {
            throw CommandFailure("neither XDG_CONFIG_HOME nor HOME is set: no accounts to log out of")
        }
        var accounts = try MatrixAccounts(path: path)
        let account = try accounts.choose(parsed.value("--as"))
        var note = ""
        if let url = URL(string: account.homeserver) {
            do {
                try MatrixClient(homeserver: url, accessToken: account.accessToken).logout()
            } catch let error as MatrixError where error.errcode == "M_UNKNOWN_TOKEN" {
                note = " (the server had already ended the session)"
            } catch let error as MatrixError {
                // Forgetting the token here is still right; say the server may keep the session.
                note = " (could not tell the server: \(error.message); the session may stay listed there)"
            }
        }
        accounts.remove(userID: account.userID)
        do {
            try accounts.save()
        } catch {
            throw CommandFailure("could not forget the session in \(VisibleText.escape(accounts.path)): \(VisibleText.escape("\(error)"))")
        }
        try context.print("logged out \(VisibleText.escape(account.userID))\(note)")
        return 0
    }
}
