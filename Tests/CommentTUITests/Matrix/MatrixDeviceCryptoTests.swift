import Foundation
import MatrixCrypto
import ThreadModel
import XCTest
@testable import CommentTUI

/// Our device's Olm account kept in its crypto store and its keys on a real Synapse: uploaded
/// once, topped up, the same identity after a restart, and claimable by another user.
final class MatrixDeviceCryptoTests: SharedSynapseTestCase {
    private func location(_ user: MatrixTestUser, in folder: URL) -> CryptoStoreLocation {
        CryptoStoreLocation(parent: folder.appendingPathComponent("data").path, keyFolder: folder.appendingPathComponent("config").path,
                            userID: user.account.userID, deviceID: user.account.deviceID)
    }

    func testKeysGoUpOnceAreToppedUpAndTheIdentitySurvivesARestart() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server)
        let bo = try registerUser("bo", on: server)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("device-crypto-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let device = try MatrixDeviceCrypto(userID: ann.account.userID, deviceID: ann.account.deviceID, location: location(ann, in: folder))
        XCTAssertFalse(device.deviceKeysUploaded)
        XCTAssertEqual(try device.uploadKeys(client: ann.client), KeyReplenishment.target)
        XCTAssertTrue(device.deviceKeysUploaded)
        XCTAssertNil(try device.uploadKeys(client: ann.client, replenishment: KeyReplenishment(serverCount: 50, unusedFallbackTypes: ["signed_curve25519"])),
                     "nothing to send: no request")

        var tracker = DeviceListTracker()
        tracker.track([ann.account.userID])
        let batch = tracker.nextQuery()
        XCTAssertEqual(tracker.queryAnswered(batch, answer: try bo.client.queryKeys(users: batch)), [])
        XCTAssertEqual(tracker.devices[ann.account.userID]?[ann.account.deviceID]?.ed25519, device.fingerprint)

        for _ in 0 ..< 3 { _ = try bo.client.claimKeys([ann.account.userID: [ann.account.deviceID]]) }
        XCTAssertEqual(try device.uploadKeys(client: ann.client, replenishment: KeyReplenishment(serverCount: 47, unusedFallbackTypes: ["signed_curve25519"])),
                       50, "three claimed, three made")

        let again = try MatrixDeviceCrypto(userID: ann.account.userID, deviceID: ann.account.deviceID, location: location(ann, in: folder))
        XCTAssertNil(again.store.loss)
        XCTAssertEqual(again.fingerprint, device.fingerprint, "the same device after a restart")
        XCTAssertTrue(again.deviceKeysUploaded)
        XCTAssertEqual(again.account.unpublishedOneTimeKeys.count, 0)
    }

    func testALostStoreOrAnotherIdentityOnTheServerIsRefusedNotReplaced() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("device-crypto-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let place = location(ann, in: folder)
        let device = try MatrixDeviceCrypto(userID: ann.account.userID, deviceID: ann.account.deviceID, location: place)
        try device.uploadKeys(client: ann.client)
        let fallback = device.account.fallbackKeyJSON
        try device.uploadKeys(client: ann.client)
        XCTAssertEqual(device.account.fallbackKeyJSON, fallback, "a second upload without a plan does not rotate the fallback key")

        // The store's key file gone: the store is set aside, and with it this device's identity.
        try FileManager.default.removeItem(atPath: place.keyFolder + "/" + place.keyFile)
        XCTAssertThrowsError(try MatrixDeviceCrypto(userID: ann.account.userID, deviceID: ann.account.deviceID, location: place)) { error in
            XCTAssertTrue("\(error)".contains("log in again"), "\(error)")
        }

        // A second store for the same device (a copy of the client elsewhere) must not publish over the first.
        let elsewhere = try MatrixDeviceCrypto(userID: ann.account.userID, deviceID: ann.account.deviceID,
                                               location: location(ann, in: folder.appendingPathComponent("elsewhere")))
        XCTAssertThrowsError(try elsewhere.uploadKeys(client: ann.client)) { error in
            XCTAssertEqual(error as? MatrixDeviceCrypto.IdentityLost,
                           MatrixDeviceCrypto.IdentityLost(reason: "the server holds other keys for device \(ann.account.deviceID)"))
        }
        var tracker = DeviceListTracker()
        tracker.track([ann.account.userID])
        let batch = tracker.nextQuery()
        tracker.queryAnswered(batch, answer: try ann.client.queryKeys(users: batch))
        XCTAssertEqual(tracker.devices[ann.account.userID]?[ann.account.deviceID]?.ed25519, device.fingerprint, "the first identity stands")
    }
}
