import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// An encrypted room on the shared Synapse: Bo's matrix-nio device (kept in a folder) made it
/// and invited Ann, who joined; Ann is ours (`MatrixRoomKeys` in the folder's data home).
struct EncryptedRoom {
    var ann: MatrixTestUser
    var bo: MatrixTestUser
    var nio: MatrixNioPeer
    var room: String
    var folder: URL

    /// Where Ann's client keeps its data and configuration.
    var environment: [String: String] {
        ["XDG_DATA_HOME": folder.appendingPathComponent("data").path, "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
         "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path]
    }
}

extension SharedSynapseTestCase {
    /// Bo (nio) makes an encrypted room (rotating after `rotationMessages` when given) and
    /// invites Ann, who joins.
    func encryptedRoom(rotationMessages: Int? = nil) throws -> EncryptedRoom {
        let server = try self.server
        let ann = try registerUser("ann", on: server)
        let bo = try registerUser("bo", on: server)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("encrypted-room-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let nio = MatrixNioPeer(homeserver: server.baseURL, userID: bo.account.userID, password: bo.account.password,
                                storeFolder: folder.appendingPathComponent("nio").path)
        let made = try nio.run([.createEncryptedRoom(invite: [ann.account.userID], rotationMessages: rotationMessages)])
        let room = try XCTUnwrap(made.first?["room_id"] as? String, "\(made)")
        _ = try ann.other.join(room)
        return EncryptedRoom(ann: ann, bo: bo, nio: nio, room: room, folder: folder)
    }

    /// Ann's device keys (in the room's folder), uploaded.
    func keys(of room: EncryptedRoom) throws -> MatrixRoomKeys {
        let location = try XCTUnwrap(CryptoStoreLocation(userID: room.ann.account.userID, deviceID: room.ann.account.deviceID,
                                                         environment: room.environment))
        let keys = try MatrixRoomKeys(client: room.ann.client, userID: room.ann.account.userID, deviceID: room.ann.account.deviceID,
                                      location: location)
        XCTAssertEqual(keys.take(["to_device": ["events": []]]), [], "the device's keys went up")
        return keys
    }

    /// Nio sends `bodies`, encrypted, after a sync that shows it Ann's device; the event ids.
    @discardableResult
    func nioSends(_ bodies: [String], in room: EncryptedRoom) throws -> [String] {
        let results = try room.nio.run([.sync] + bodies.map { .sendEncrypted(room: room.room, body: $0) })
        return try results.dropFirst().map { try XCTUnwrap($0["event_id"] as? String, "\(results)") }
    }

    /// Opens the room as Ann through the account's sync carrying `keys` (not started: the room
    /// opens with its own sync, before any to-device message is taken).
    func open(_ room: EncryptedRoom, keys: MatrixRoomKeys) throws -> (MatrixThreadSource, MatrixAccountSync) {
        let sync = MatrixAccountSync(client: room.ann.client)
        sync.roomKeys = keys
        let source = try MatrixThreadSource(client: room.ann.client, address: XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room.room)")),
                                            me: room.ann.account.userID, environment: temporaryDataEnvironment(), usesCache: false,
                                            accountSync: sync)
        return (source, sync)
    }

    /// The opening's comments, without the row that says where encryption was switched on.
    func opened(_ source: MatrixThreadSource) -> [Comment] {
        (source.openedComments as! ArrayCommentStore).comments.filter { !$0.body.hasPrefix("🔒 *switched on") }
    }
}
