import Foundation
import MatrixCrypto
import ThreadModel
import XCTest
@testable import CommentTUI

/// Our device keys, one-time keys and to-device messages through a real Synapse: what we
/// upload another user reads back and checks, claims once, and receives.
final class MatrixKeysEndpointTests: SharedSynapseTestCase {
    func testUploadedKeysAreQueriedCheckedClaimedOnceAndToDeviceArrives() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server)
        let bo = try registerUser("bo", on: server)
        let device = ann.account.deviceID
        var random = SeededRandom(seed: 5)
        func bytes() -> [UInt8] { (0 ..< 32).map { _ in UInt8.random(in: 0 ... 255, using: &random) } }
        let signing = try Ed25519KeyPair(seed: bytes())
        let identity = try Curve25519KeyPair(privateKey: bytes())
        let deviceKeys = try JSONSigning.sign(.object([
            "user_id": .string(ann.account.userID), "device_id": .string(device),
            "algorithms": ["m.olm.v1.curve25519-aes-sha2", "m.megolm.v1.aes-sha2"],
            "keys": .object(["curve25519:\(device)": .string(UnpaddedBase64.encode(identity.publicKey)),
                             "ed25519:\(device)": .string(UnpaddedBase64.encode(signing.publicKey))]),
        ]), userID: ann.account.userID, keyID: device, key: signing)
        var oneTime: [String: JSONValue] = [:]
        for index in 0 ..< 2 {
            let key = try Curve25519KeyPair(privateKey: bytes())
            oneTime["signed_curve25519:AAAAA\(index)"] = try JSONSigning.sign(["key": .string(UnpaddedBase64.encode(key.publicKey))],
                                                                              userID: ann.account.userID, keyID: device, key: signing)
        }
        let counts = try ann.client.uploadKeys(deviceKeys: deviceKeys, oneTimeKeys: oneTime)
        XCTAssertEqual(counts["signed_curve25519"], 2)

        var tracker = DeviceListTracker()
        tracker.track([ann.account.userID])
        let batch = tracker.nextQuery()
        let refused = tracker.queryAnswered(batch, answer: try bo.client.queryKeys(users: batch))
        XCTAssertEqual(refused, [])
        XCTAssertEqual(tracker.devices[ann.account.userID]?[device]?.curve25519, UnpaddedBase64.encode(identity.publicKey))

        let first = try bo.client.claimKeys([ann.account.userID: [device]])
        let second = try bo.client.claimKeys([ann.account.userID: [device]])
        let third = try bo.client.claimKeys([ann.account.userID: [device]])
        let claimed = [first, second].compactMap { $0["one_time_keys"]?[ann.account.userID]?[device]?.object?.keys.first }
        XCTAssertEqual(Set(claimed).count, 2, "each key is handed out once: \(claimed)")
        XCTAssertNil(third["one_time_keys"]?[ann.account.userID]?[device]?.object?.keys.first, "none left and no fallback key")
        for answer in [first, second] {
            let entry = try XCTUnwrap(answer["one_time_keys"]?[ann.account.userID]?[device]?.object?.values.first)
            XCTAssertTrue(JSONSigning.verify(entry, userID: ann.account.userID, keyID: device, publicKey: signing.publicKey))
        }

        let since = try ann.other.sync()["next_batch"] as? String
        try bo.client.sendToDevice(type: "m.dummy", transactionID: "t1", messages: [ann.account.userID: [device: [:]]])
        try bo.client.sendToDevice(type: "m.dummy", transactionID: "t1", messages: [ann.account.userID: [device: [:]]])
        let later = try ann.other.sync(since: since, timeout: 5000)
        let events = ((later["to_device"] as? [String: Any])?["events"] as? [[String: Any]]) ?? []
        XCTAssertEqual(events.filter { $0["type"] as? String == "m.dummy" }.count, 1, "a resend with the same transaction id arrives once")
        XCTAssertEqual(events.first?["sender"] as? String, bo.account.userID)
    }
}
