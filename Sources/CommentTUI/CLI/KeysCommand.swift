import Foundation
import MatrixCrypto
import ThreadModel

/// `comment-tui keys export|import|setup`: the encryption keys of a logged-in account's device,
/// in and out of Element's key files (`KeysCommand+Files`), and cross-signing set up for an
/// account that has none (`KeysCommand+Setup`).
enum KeysCommand {
    static let usage = """
    Usage: comment-tui keys export FILE [--force] [--as @user:server]
           comment-tui keys import FILE [--as @user:server]
           comment-tui keys setup [--as @user:server]

    export writes the room keys this device holds (every encrypted room's sessions it can read)
    to FILE in Element's format ("Export E2E room keys"), encrypted with a passphrase asked for
    twice. The file is created readable by you only, and never replaces one unless --force is
    given. Anyone with the file and the passphrase can read those messages: keep both safe.
    import adds the room keys of such a file (from Element or another client) to this device,
    so it reads what the file's sessions encrypted; it says how many were new. Keys from a file
    prove less than keys their senders shared (whoever wrote the file could have made them up).
    setup creates cross-signing and secret storage for an account that has neither: this
    device is verified, a recovery key is shown once, to verify other devices with, and a key
    backup is made, from which those devices restore the history they never received.
    Passphrases and passwords are asked for without echo, or read from standard input when
    that is not a terminal; they are never shown, logged or kept.
    With one account logged in, --as is not needed.
    """

    static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, options: ["--as"], flags: ["--force"], usage: usage)
        if try Verb.printsHelp(parsed, usage: usage, context: context) { return 0 }
        guard let action = parsed.positionals.first else { throw CommandFailure.usage("keys needs export, import or setup", usage) }
        let rest = Array(parsed.positionals.dropFirst())
        switch action {
        case "export":
            guard rest.count == 1 else { throw CommandFailure.usage("keys export takes one FILE", usage) }
            return try export(to: rest[0], replacing: parsed.flags.contains("--force"), as: parsed.value("--as"), context: context)
        case "import":
            guard rest.count == 1 else { throw CommandFailure.usage("keys import takes one FILE", usage) }
            guard !parsed.flags.contains("--force") else { throw CommandFailure.usage("--force is for keys export", usage) }
            return try importKeys(from: rest[0], as: parsed.value("--as"), context: context)
        case "setup":
            guard rest.isEmpty else { throw CommandFailure.usage("keys setup takes no FILE", usage) }
            guard !parsed.flags.contains("--force") else { throw CommandFailure.usage("--force is for keys export", usage) }
            return try setup(as: parsed.value("--as"), context: context)
        default:
            throw CommandFailure.usage("keys does not know \(VisibleText.escape(action)); it takes export, import or setup", usage)
        }
    }

    /// The chosen account, its device's store and a client for it.
    struct Device {
        let account: MatrixAccounts.Account
        let location: CryptoStoreLocation
        let homeserver: URL
        /// The user id, escaped for the terminal.
        var user: String { VisibleText.escape(account.userID) }
    }

    /// The logged-in account `chosen` names (or the only one), with what its device needs.
    static func device(_ chosen: String?, context: CommandContext) throws -> Device {
        guard let path = MatrixAccounts.path(environment: context.environment) else {
            throw CommandFailure("neither XDG_CONFIG_HOME nor HOME is set: no accounts")
        }
        let account = try MatrixAccounts(path: path).choose(chosen)
        let user = VisibleText.escape(account.userID)
        guard !account.deviceID.isEmpty else {
            throw CommandFailure("the session of \(user) does not say which device it is; log in again")
        }
        guard let homeserver = URL(string: account.homeserver) else {
            throw CommandFailure("the homeserver of \(user) is not an address; log in again")
        }
        guard let location = CryptoStoreLocation(userID: account.userID, deviceID: account.deviceID, environment: context.environment) else {
            throw CommandFailure("neither XDG_DATA_HOME nor HOME is set: nowhere to keep this device's keys")
        }
        return Device(account: account, location: location, homeserver: homeserver)
    }

    /// A secret asked for on the terminal without echo (`prompt`), or standard input's first
    /// input. Only the line break after it goes (a passphrase keeps its spaces); empty is refused.
    static func readSecret(_ prompt: String, what: String, outcome: String, context: CommandContext) throws -> String {
        let typed: String
        if context.inputIsTerminal {
            context.writeError(prompt)
            guard let line = try context.readSecret() else { throw CommandFailure("no \(what) given; \(outcome)") }
            typed = line
        } else {
            typed = try context.readInput("the \(what)", limit: 4 << 10, limitName: "4 KiB", outcome: outcome)
        }
        var trimmed = Substring(typed)
        while trimmed.last == "\n" || trimmed.last == "\r" || trimmed.last == "\r\n" { trimmed.removeLast() }
        guard !trimmed.isEmpty else { throw CommandFailure("no \(what) given; \(outcome)") }
        return String(trimmed)
    }
}
