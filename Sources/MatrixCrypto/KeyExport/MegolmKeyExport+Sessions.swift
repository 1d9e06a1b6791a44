import Foundation
import ThreadModel

/// The file's plaintext: a JSON list of room keys (`ExportedRoomKey`).
extension MegolmKeyExport {
    /// What a file held.
    public struct Contents: Sendable, Equatable {
        /// The Megolm keys, in file order.
        public let keys: [ExportedRoomKey]
        /// Entries of other algorithms, skipped.
        public let skipped: Int
    }

    /// `keys` as a file's text, encrypted with `passphrase`.
    public static func seal(keys: [ExportedRoomKey], passphrase: String, rounds: Int = defaultRounds,
                            random: inout some RandomSource) throws -> String {
        try seal(CanonicalJSON.encode(.array(keys.map(\.json))), passphrase: passphrase, rounds: rounds, random: &random)
    }

    /// The keys of a file's `text`, opened with `passphrase`. Any entry that does not read
    /// refuses the whole file (nothing of a damaged file is taken).
    public static func openKeys(_ text: String, passphrase: String) throws -> Contents {
        try keys(inPlaintext: open(text, passphrase: passphrase))
    }

    /// The keys of a file's decrypted JSON.
    static func keys(inPlaintext plaintext: [UInt8]) throws -> Contents {
        guard let list = (try? JSONValue(parsing: Data(plaintext)))?.array else { throw KeyExportRefusal.notSessionList }
        var keys: [ExportedRoomKey] = []
        var skipped = 0
        for entry in list {
            guard entry.object != nil else { throw KeyExportRefusal.notSessionList }
            if let key = try ExportedRoomKey(json: entry) { keys.append(key) } else { skipped += 1 }
        }
        return Contents(keys: keys, skipped: skipped)
    }
}
