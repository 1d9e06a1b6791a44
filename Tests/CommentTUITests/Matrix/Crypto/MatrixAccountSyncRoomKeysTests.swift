import Foundation
import MatrixCrypto
import XCTest
@testable import CommentTUI

/// `MatrixAccountSync.openRoomKeys`: the account's room keys opened from outside the module (no
/// homeserver needed: the store is local, its keys go up with the first sync answer).
final class MatrixAccountSyncRoomKeysTests: XCTestCase {
    private let client = MatrixClient(homeserver: URL(string: "http://127.0.0.1:9")!, accessToken: "token")

    func testOpensTheKeysOfTheStoreTheEnvironmentNames() throws {
        let folder = NSTemporaryDirectory() + "room-keys-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = ["XDG_DATA_HOME": folder + "/data", "XDG_CONFIG_HOME": folder + "/config"]
        let sync = MatrixAccountSync(client: client)
        var complaints: [String] = []
        XCTAssertTrue(sync.openRoomKeys(userID: "@ann:example.org", deviceID: "ANNDEVICE", environment: environment) { complaints.append($0) })
        XCTAssertEqual(complaints, [])
        let keys = try XCTUnwrap(sync.roomKeys)
        XCTAssertEqual(keys.device.userID, "@ann:example.org")
        XCTAssertEqual(keys.device.deviceID, "ANNDEVICE")
        let location = try XCTUnwrap(CryptoStoreLocation(userID: "@ann:example.org", deviceID: "ANNDEVICE", environment: environment))
        XCTAssertTrue(location.path.hasPrefix(folder + "/data/"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: location.path), "the store was made where the environment says")
    }

    func testSaysWhyWhenTheEnvironmentHasNoPlaceForTheStore() {
        let sync = MatrixAccountSync(client: client)
        var complaints: [String] = []
        XCTAssertFalse(sync.openRoomKeys(userID: "@ann:example.org", deviceID: "ANNDEVICE", environment: [:]) { complaints.append($0) })
        XCTAssertNil(sync.roomKeys)
        XCTAssertEqual(complaints.count, 1)
        XCTAssertTrue(complaints.first?.contains("neither XDG_DATA_HOME nor HOME") == true, "\(complaints)")
    }
}
