import Foundation
import MatrixCrypto
import ThreadModel

/// `keys setup`: cross-signing and secret storage for an account that has neither
/// (`MatrixDeviceCrypto.setUpCrossSigning`), the recovery key shown once.
extension KeysCommand {
    static func setup(as chosen: String?, context: CommandContext) throws -> Int32 {
        let device = try device(chosen, context: context)
        let outcome = "nothing was set up"
        let result: MatrixDeviceCrypto.SetupOutcome
        let keys: MatrixRoomKeys
        do {
            // Through the room keys: they hold the store's lock, so a running client is not written under.
            let client = MatrixClient(homeserver: device.homeserver, accessToken: device.account.accessToken)
            keys = try MatrixRoomKeys(client: client, userID: device.account.userID, deviceID: device.account.deviceID,
                                      location: device.location)
            if let loss = keys.device.store.loss { context.writeError("comment-tui keys: \(VisibleText.escape("\(loss)"))\n") }
            result = try keys.device.setUpCrossSigning(client: client) {
                try readSecret("Password of \(device.user) (the server asks for it to publish the keys): ",
                               what: "password", outcome: outcome, context: context)
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch let refusal as CrossSigningSetup.Refusal {
            throw CommandFailure("\(refusal.description); \(outcome)")
        } catch let error as MatrixError {
            throw CommandFailure("\(error.message); \(outcome)")
        } catch let refusal as CustomStringConvertible & Error {
            throw CommandFailure("\(VisibleText.escape(refusal.description)); \(outcome)")
        }
        // The one time the key is shown: to the person, never to a log or a file of ours. At
        // once, before anything else can fail or be interrupted: nothing else will show it.
        try context.print("""
            cross-signing is set up for \(device.user), and this device (\(VisibleText.escape(device.account.deviceID))) is verified.
            Your recovery key, shown this once:

                \(result.recoveryKey.displayed)

            Keep it somewhere safe (a password manager, or on paper): it verifies your other devices and sessions \
            (comment-tui verify --recovery-key, or Element's "Verify with Recovery Key"), and nothing can replace it.
            """)
        // Then the key backup, as Element's "Set up recovery" makes one (its key under the new
        // secret storage key). Cross-signing stands without it: its failure is only said.
        do {
            let version = try keys.createBackup(secretStorage: result.storageKey)
            try context.print("A key backup (version \(VisibleText.escape(version))) now keeps the keys of your encrypted messages for your other devices.")
        } catch {
            context.writeError("comment-tui keys: no key backup was made (\(VisibleText.escape("\(error)"))): your other devices will not restore history from one\n")
        }
        return 0
    }
}
