import Foundation
import MatrixCrypto
import ThreadModel

/// `comment-tui verify --recovery-key | --passphrase [--as @user:server]`: verifies this
/// machine's device of a logged-in account with the account's recovery key (or its passphrase),
/// so that Element users' clients share room keys with it (`RecoveryKeyVerification`).
enum VerifyCommand {
    static let usage = """
    Usage: comment-tui verify --recovery-key [--as @user:server]
           comment-tui verify --passphrase [--as @user:server]

    Verifies this device of a logged-in Matrix account with the account's recovery key (the
    "Security Key" Element shows when recovery is set up), or with the passphrase it was set
    up with: the key opens the account's secret storage, whose cross-signing keys sign this
    device. Other people's clients (Element) share the keys of encrypted messages only with
    verified devices. The key is asked for without echo, or read from standard input when
    that is not a terminal; it is never shown, logged or kept. Once is enough per device.
    With one account logged in, --as is not needed.
    """

    static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, options: ["--as"], flags: ["--recovery-key", "--passphrase"], usage: usage)
        if try Verb.printsHelp(parsed, usage: usage, context: context) { return 0 }
        guard parsed.positionals.isEmpty else { throw CommandFailure.usage("verify takes no arguments", usage) }
        let usesPassphrase = parsed.flags.contains("--passphrase")
        guard usesPassphrase != parsed.flags.contains("--recovery-key") else {
            throw CommandFailure.usage("verify needs one of --recovery-key and --passphrase", usage)
        }
        // The same account, device and store checks as the keys verbs'.
        let chosen = try KeysCommand.device(parsed.value("--as"), context: context)
        let (account, location, homeserver, user) = (chosen.account, chosen.location, chosen.homeserver, chosen.user)
        let what = usesPassphrase ? "recovery passphrase" : "recovery key"
        let typed = try readSecret(what, for: user, keepingSpaces: usesPassphrase, context: context)
        let secret: RecoveryKeyVerification.Secret = usesPassphrase ? .passphrase(typed) : .recoveryKey(typed)
        let outcome: RecoveryKeyVerification.Outcome
        do {
            let device = try MatrixDeviceCrypto(userID: account.userID, deviceID: account.deviceID, location: location)
            if let loss = device.store.loss { context.writeError("comment-tui verify: \(VisibleText.escape("\(loss)"))\n") }
            outcome = try device.verify(with: secret, client: MatrixClient(homeserver: homeserver, accessToken: account.accessToken))
        } catch let error as MatrixError {
            throw CommandFailure("\(error.message); this device is not verified")
        } catch let refusal as CustomStringConvertible & Error {
            throw CommandFailure("\(VisibleText.escape(refusal.description)); this device is not verified")
        }
        let device = VisibleText.escape(outcome.deviceID)
        if outcome.alreadySigned {
            try context.print("this device (\(device)) of \(user) was already verified; nothing to do")
        } else {
            try context.print("""
                this device (\(device)) of \(user) is now verified with your \(what); Element users' clients will share room \
                keys with it
                """)
        }
        return 0
    }

    /// The key or passphrase: asked for on the terminal without echo, or standard input's first
    /// input (a key may come as its groups over several lines: all of it is read). A passphrase
    /// keeps its spaces, only the line break after it goes.
    private static func readSecret(_ what: String, for user: String, keepingSpaces: Bool, context: CommandContext) throws -> String {
        let typed: String
        if context.inputIsTerminal {
            context.writeError("\(what.prefix(1).uppercased() + what.dropFirst()) for \(user): ")
            guard let line = try context.readSecret() else { throw CommandFailure("no \(what) given; this device is not verified") }
            typed = line
        } else {
            typed = try context.readInput("the \(what)", limit: 4 << 10, limitName: "4 KiB", outcome: "this device is not verified")
        }
        let trimmed = typed.trimmingCharacters(in: keepingSpaces ? .newlines : .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw CommandFailure("no \(what) given; this device is not verified") }
        return trimmed
    }
}
