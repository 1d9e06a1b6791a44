import Foundation
import MatrixCrypto
import XCTest
@testable import CommentTUI

/// The key backup's guards that need no server: no backup is made by a device without the
/// cross-signing keys, and a device without a backup key asks the server nothing.
final class MatrixKeyBackupOfflineTests: XCTestCase {
    private func keys() throws -> MatrixRoomKeys {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("backup-offline-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        // Nothing listens there: any request would fail, and say so.
        let client = MatrixClient(homeserver: try XCTUnwrap(URL(string: "http://127.0.0.1:9")), accessToken: "token")
        let location = try XCTUnwrap(CryptoStoreLocation(userID: "@ann:example.org", deviceID: "DEV",
                                                         environment: ["XDG_DATA_HOME": folder.appendingPathComponent("data").path,
                                                                       "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path]))
        return try MatrixRoomKeys(client: client, userID: "@ann:example.org", deviceID: "DEV", location: location)
    }

    func testNoBackupIsMadeWithoutTheCrossSigningKeys() throws {
        let keys = try keys()
        var random = SystemRandom()
        let storage = try SecretStorageKey.generate(keyID: "k", name: nil, random: &random).key
        XCTAssertThrowsError(try keys.createBackup(secretStorage: storage)) { error in
            XCTAssertEqual("\(error)", "no key backup was made: this device holds no cross-signing keys (enter the recovery key first)")
        }
        XCTAssertNil(try keys.device.store.value("key", in: MatrixRoomKeys.backupKey))
    }

    func testWithoutABackupKeyNothingIsAskedNorSaid() throws {
        let keys = try keys()
        keys.lock.withLock { keys.want(roomID: "!room:example.org", sessionID: "S", senderKey: "K") }
        XCTAssertEqual(keys.restoreFromBackup(roomID: "!room:example.org"), [], "no key: the backup is not looked at")
        XCTAssertEqual(keys.backUpOwnSessions(), [])
        XCTAssertNil(try keys.trustedBackup())
    }
}
