import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// A real peer's device keys (matrix-nio with vodozemac) as Synapse serves them pass our checks:
/// canonical JSON, unpadded base64 and Ed25519 agree with another implementation's.
final class MatrixPeerDeviceKeysTests: SharedSynapseTestCase {
    func testAVodozemacDevicesKeysCheckAndATamperedCopyDoesNot() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server)
        let bo = try registerUser("bo", on: server)
        let peer = MatrixNioPeer(homeserver: server.baseURL, userID: bo.account.userID, password: bo.account.password)
        let uploaded = try XCTUnwrap(peer.run([.uploadKeys]).first)
        let device = try XCTUnwrap(uploaded["device_id"] as? String)
        var tracker = DeviceListTracker()
        tracker.track([bo.account.userID])
        let batch = tracker.nextQuery()
        let answer = try ann.client.queryKeys(users: batch)
        XCTAssertEqual(tracker.queryAnswered(batch, answer: answer), [])
        let keys = try XCTUnwrap(tracker.devices[bo.account.userID]?[device], "the peer's device was read")
        XCTAssertEqual(keys.ed25519, uploaded["ed25519"] as? String)
        XCTAssertTrue(keys.algorithms.contains("m.megolm.v1.aes-sha2"))

        var tampered = try XCTUnwrap(answer["device_keys"]?[bo.account.userID]?[device]?.object)
        tampered["algorithms"] = ["m.olm.v1.curve25519-aes-sha2"]
        XCTAssertThrowsError(try DeviceKeys(.object(tampered), userID: bo.account.userID, deviceID: device))
    }
}
