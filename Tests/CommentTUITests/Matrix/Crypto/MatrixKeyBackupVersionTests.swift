import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// The backup version a run uses is re-read when the server says it is gone or replaced, and a
/// backup whose creation answer was lost is recognised as ours (against Synapse).
final class MatrixKeyBackupVersionTests: SharedSynapseTestCase {
    func testAnUploadToAVersionDeletedMeanwhileReadsTheCurrentVersionNextTime() throws {
        let account = try backedUpAccount()
        let client = account.ann.client
        // Another device replaces the backup (same key, as a reset of the version would) while
        // this run remembers the old version.
        let original = try XCTUnwrap(client.currentBackupVersion())
        try client.request("DELETE", ["room_keys", "version", account.version])
        let replacement = try client.createBackupVersion(algorithm: MegolmBackupKey.algorithm, authData: XCTUnwrap(original["auth_data"]))
        XCTAssertNotEqual(replacement, account.version)

        _ = try account.firstDeviceSends(1)
        let first = account.first.backUpOwnSessions()
        XCTAssertEqual(first.count, 1, "the upload to the deleted version failed and said so: \(first)")
        XCTAssertEqual(account.first.backUpOwnSessions(), [], "the next upload went to the current version")
        XCTAssertEqual(try client.currentBackupVersion()?["count"]?.int, 1)
    }

    func testABackupWhoseCreationAnswerWasLostIsFoundAsOurs() throws {
        let account = try backedUpAccount()
        // A device of Ann's talking through a relay that loses the answer to the creation.
        let relay = try TCPRelay(to: XCTUnwrap(account.server.port))
        let session = try MatrixClient(homeserver: account.server.baseURL).login(user: account.ann.account.userID, password: account.ann.account.password)
        let client = MatrixClient(homeserver: relay.baseURL, accessToken: session.accessToken)
        let keys = try MatrixRoomKeys.device(client: client, userID: account.ann.account.userID, deviceID: session.deviceID,
                                             environment: account.environment("relayed"))
        _ = try keys.lock.withLock { try keys.device.verify(with: .recoveryKey(account.recoveryKey), client: client) }
        let storage = try secretStorageKey(account.recoveryKey, client: account.ann.client, userID: account.ann.account.userID)
        relay.drip(path: "/room_keys/version", bytesPerSecond: 1)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var made: Result<String, Error>?
        DispatchQueue.global().async {
            made = Result { try keys.createBackup(secretStorage: storage) }
            done.signal()
        }
        var current = account.version
        let deadline = Date().addingTimeInterval(10)
        while current == account.version, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            current = try account.ann.client.currentBackupVersion()?["version"]?.string ?? current
        }
        XCTAssertNotEqual(current, account.version, "the server made the backup")
        // A few bytes of the answer arrive first (with none, curl would send the request again).
        Thread.sleep(forTimeInterval: 2)
        relay.cut()
        relay.stopDripping(path: "/room_keys/version")
        relay.restore()
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(try made?.get(), current, "the backup made is found as ours")
        let key = try XCTUnwrap(keys.device.store.value("key", in: MatrixRoomKeys.backupKey))
        XCTAssertEqual(try account.ann.client.currentBackupVersion()?["auth_data"]?["public_key"]?.string, key.publicKeyBase64, "its key kept")
        var random = SystemRandom()
        XCTAssertNil(keys.currentBackupVersion(ifMadeWith: try MegolmBackupKey.generate(random: &random)),
                     "another key's backup is not taken for ours")
    }
}
