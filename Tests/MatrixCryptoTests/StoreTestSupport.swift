import Foundation
import ThreadModel
@testable import MatrixCrypto

/// A session-like record: about 300 bytes of pickle and a ratchet index.
struct StoredSession: Codable, Equatable {
    var pickle: String
    var index: Int

    /// The record a test writes for `index`: its pickle depends on the index, so a stale copy shows.
    static func numbered(_ index: Int) -> StoredSession {
        StoredSession(pickle: String(repeating: String(index, radix: 36), count: 300).prefix(300).description, index: index)
    }
}

let sessions = CryptoStoreCollection<StoredSession>("test.sessions")
let counters = CryptoStoreCollection<Int>("test.counters")


/// A fresh folder for one test's data and configuration, removed afterwards.
struct StoreTestFolder {
    let root: String

    init() throws {
        root = NSTemporaryDirectory() + "crypto-store-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    /// The store of a test account's device in this folder.
    var location: CryptoStoreLocation {
        CryptoStoreLocation(parent: root + "/data/crypto", keyFolder: root + "/config", userID: "@ann:example.org", deviceID: "DEVICE")
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }

    /// The bytes of a file in the store's folder.
    func storeFile(_ name: String) -> [UInt8] {
        Array(FileManager.default.contents(atPath: location.path + "/" + name) ?? Data())
    }

    /// Replaces a file in the store's folder (as damage or an attacker would).
    func overwrite(_ name: String, with bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: location.path + "/" + name))
    }

    /// The names in the folder that holds the store folders.
    func storeFolders() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: location.parent)) ?? []).sorted()
    }

    /// The permission bits of a path.
    func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? -1
    }
}
