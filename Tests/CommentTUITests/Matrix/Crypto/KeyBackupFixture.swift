import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// An account of ours with recovery and a key backup, on the shared Synapse: mautrix sets up
/// cross-signing and secret storage (`setUpRecovery`), our first device enters the recovery key
/// and makes the backup (`MatrixRoomKeys.createBackup`); an encrypted room of Ann's own.
struct BackedUpAccount {
    var ann: MatrixTestUser
    var server: SynapseServer
    var room: String
    var recoveryKey: String
    /// The first device's keys (verified, the backup made).
    var first: MatrixRoomKeys
    var version: String
    var folder: URL

    /// The data and configuration homes of our device named `name`.
    func environment(_ name: String) -> [String: String] {
        BackedUpAccount.environment(name, in: folder)
    }

    static func environment(_ name: String, in folder: URL) -> [String: String] {
        ["XDG_DATA_HOME": folder.appendingPathComponent("\(name)/data").path,
         "XDG_CONFIG_HOME": folder.appendingPathComponent("\(name)/config").path]
    }

    /// Ann's first device sends `count` messages (`message 0`, …) encrypted to the room, one
    /// after another; their event ids. (Synapse's writes are most of the time taken.)
    func firstDeviceSends(_ count: Int) throws -> [String] {
        try (0 ..< count).map { index in
            let content = try first.encrypt(type: "m.room.message", content: ["msgtype": "m.text", "body": .string("message \(index)")],
                                            roomID: room, members: [ann.account.userID], settings: ["algorithm": "m.megolm.v1.aes-sha2"])
            return try ann.client.send(room: room, type: "m.room.encrypted", transactionID: "backup-\(index)-\(UUID().uuidString)",
                                       content: content)
        }
    }

    /// A second device of Ann's (a fresh login) with its keys up, not verified yet.
    func secondDevice(_ name: String) throws -> (client: MatrixClient, keys: MatrixRoomKeys) {
        let session = try MatrixClient(homeserver: server.baseURL).login(user: ann.account.userID, password: ann.account.password)
        let client = MatrixClient(homeserver: server.baseURL, accessToken: session.accessToken)
        let keys = try MatrixRoomKeys.device(client: client, userID: ann.account.userID, deviceID: session.deviceID,
                                             environment: environment(name))
        return (client, keys)
    }
}

extension MatrixRoomKeys {
    /// A device's keys in the store under `environment`, uploaded.
    static func device(client: MatrixClient, userID: String, deviceID: String, environment: [String: String]) throws -> MatrixRoomKeys {
        let location = try XCTUnwrap(CryptoStoreLocation(userID: userID, deviceID: deviceID, environment: environment))
        let keys = try MatrixRoomKeys(client: client, userID: userID, deviceID: deviceID, location: location)
        XCTAssertEqual(keys.take(["to_device": ["events": []]]), [], "the device's keys went up")
        return keys
    }
}

extension SharedSynapseTestCase {
    /// Ann, her recovery set up, her first device verified with the recovery key, the backup made.
    func backedUpAccount() throws -> BackedUpAccount {
        let server = try self.server
        let ann = try registerUser("ann", on: server)
        let room = try ann.other.createRoom(name: "Notes", preset: .privateChat,
                                            initialState: [["type": "m.room.encryption", "state_key": "", "content": ["algorithm": "m.megolm.v1.aes-sha2"]]])
        let recoveryKey = try MautrixPeer(homeserver: server.baseURL, userID: ann.account.userID, password: ann.account.password)
            .setUpRecovery().recoveryKey
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("key-backup-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let first = try MatrixRoomKeys.device(client: ann.client, userID: ann.account.userID, deviceID: ann.account.deviceID,
                                              environment: BackedUpAccount.environment("first", in: folder))
        _ = try first.lock.withLock { try first.device.verify(with: .recoveryKey(recoveryKey), client: ann.client) }
        let version = try first.createBackup(secretStorage: secretStorageKey(recoveryKey, client: ann.client, userID: ann.account.userID))
        return BackedUpAccount(ann: ann, server: server, room: room, recoveryKey: recoveryKey, first: first, version: version, folder: folder)
    }

    /// The account's default secret storage key, opened with its recovery key.
    func secretStorageKey(_ recoveryKey: String, client: MatrixClient, userID: String) throws -> SecretStorageKey {
        let pointer = try XCTUnwrap(client.accountData(SecretStorageKeyDescription.defaultKeyEventType, of: userID))
        let keyID = try SecretStorageKeyDescription.defaultKeyID(from: pointer)
        let type = SecretStorageKeyDescription.eventType(keyID: keyID)
        let description = try SecretStorageKeyDescription.defaultKey(in: [SecretStorageKeyDescription.defaultKeyEventType: pointer,
                                                                          type: XCTUnwrap(client.accountData(type, of: userID))])
        return try SecretStorageKey(recoveryKey: RecoveryKey(typed: recoveryKey), description: description)
    }

    /// Opens `room` as a device of Ann's with `keys`, through an account sync of its own.
    func open(_ room: String, client: MatrixClient, keys: MatrixRoomKeys, me: String) throws -> (MatrixThreadSource, MatrixAccountSync) {
        let sync = MatrixAccountSync(client: client)
        sync.roomKeys = keys
        let source = try MatrixThreadSource(client: client, address: XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)")),
                                            me: me, environment: temporaryDataEnvironment(), usesCache: false, accountSync: sync)
        return (source, sync)
    }
}

