import Foundation
import MatrixCrypto
import ThreadModel

/// `keys export FILE` and `keys import FILE`: the device's room keys in Element's key file
/// format (`MegolmKeyExport`), through `MatrixRoomKeys+KeyFile`.
extension KeysCommand {
    /// The largest key file read (a file of a hundred thousand sessions is about 60 MB).
    static let keyFileLimit = 256 << 20

    static func export(to path: String, replacing: Bool, as chosen: String?, context: CommandContext) throws -> Int32 {
        let device = try device(chosen, context: context)
        let shown = VisibleText.escape(path)
        let outcome = "no keys were exported"
        // Before the passphrase: asking for one twice only to refuse would waste it.
        if !replacing, KeyFile.exists(path) {
            throw CommandFailure("\(shown) exists already; \(outcome) (give --force to replace it)")
        }
        let keys = try openKeys(device, outcome: outcome)
        let exported: [ExportedRoomKey]
        do {
            exported = try keys.exportedRoomKeys()
        } catch {
            throw CommandFailure("the keys of \(device.user) did not read (\(VisibleText.escape("\(error)"))); \(outcome)")
        }
        let passphrase = try readSecret("Passphrase for the key file: ", what: "passphrase", outcome: outcome, context: context)
        if context.inputIsTerminal {
            let again = try readSecret("The same passphrase again: ", what: "passphrase", outcome: outcome, context: context)
            guard ConstantTime.equal(Array(again.utf8), Array(passphrase.utf8)) else {
                throw CommandFailure("the two passphrases differ; \(outcome)")
            }
        }
        var random = SystemRandom()
        let text = try MegolmKeyExport.seal(keys: exported, passphrase: passphrase, random: &random)
        do {
            try KeyFile.write(Array(text.utf8), to: path, replacing: replacing)
        } catch let error as SystemError where error.isAlreadyExists {
            throw CommandFailure("\(shown) exists already; \(outcome) (give --force to replace it)")
        } catch {
            throw CommandFailure("\(VisibleText.escape("\(error)")); \(outcome)")
        }
        try context.print("""
            wrote \(count(exported.count, "room key")) of \(device.user) to \(shown); anyone with this file and its \
            passphrase can read those messages
            """)
        return 0
    }

    static func importKeys(from path: String, as chosen: String?, context: CommandContext) throws -> Int32 {
        let device = try device(chosen, context: context)
        let shown = VisibleText.escape(path)
        let outcome = "no keys were imported"
        let bytes: [UInt8]
        do {
            guard let read = try KeyFile.read(path, limit: keyFileLimit) else {
                throw CommandFailure("\(shown) is over the 256 MiB a key file may have; \(outcome)")
            }
            bytes = read
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("\(VisibleText.escape("\(error)")); \(outcome)")
        }
        let passphrase = try readSecret("Passphrase of \(shown): ", what: "passphrase", outcome: outcome, context: context)
        let contents: MegolmKeyExport.Contents
        do {
            contents = try MegolmKeyExport.openKeys(String(decoding: bytes, as: UTF8.self), passphrase: passphrase)
        } catch let refusal as KeyExportRefusal {
            throw CommandFailure("\(shown): \(refusal.description); \(outcome)")
        }
        let keys = try openKeys(device, outcome: outcome)
        let result: MatrixRoomKeys.KeyImport
        do {
            result = try keys.importRoomKeys(contents.keys)
        } catch {
            throw CommandFailure("the keys of \(device.user) were not stored (\(VisibleText.escape("\(error)"))); \(outcome)")
        }
        var notes: [String] = []
        if result.improved > 0 { notes.append("\(result.improved) readable from earlier messages than before") }
        if result.alreadyKept > 0 { notes.append("\(result.alreadyKept) already here") }
        if result.refused > 0 { notes.append("\(result.refused) refused: they claim sessions we hold but are not them") }
        if contents.skipped > 0 { notes.append("\(contents.skipped) of other kinds skipped") }
        try context.print("""
            imported \(count(result.added, "new room key")) for \(device.user) from \(shown)\
            \(notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")
            """)
        return 0
    }

    /// The device's room keys (its store, locked while in use).
    private static func openKeys(_ device: Device, outcome: String) throws -> MatrixRoomKeys {
        do {
            let keys = try MatrixRoomKeys(client: MatrixClient(homeserver: device.homeserver, accessToken: device.account.accessToken),
                                          userID: device.account.userID, deviceID: device.account.deviceID, location: device.location)
            return keys
        } catch {
            throw CommandFailure("the keys of \(device.user) did not open (\(VisibleText.escape("\(error)"))); \(outcome)")
        }
    }

    /// "1 room key", "3 room keys".
    private static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}
