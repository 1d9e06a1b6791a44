import COlm
import Foundation
import ThreadModel
import XCTest
@testable import MatrixCrypto

/// Device keys read and checked as the spec says, and the device list followed through sync's
/// changes and `/keys/query` answers.
final class DeviceListTrackerTests: XCTestCase {
    private func deviceKeys(user: String, device: String, seed: UInt8, curve: UInt8 = 1,
                            signWith: UInt8? = nil, listedUser: String? = nil) throws -> JSONValue {
        let signing = try Ed25519KeyPair(seed: [UInt8](repeating: seed, count: 32))
        let identity = try Curve25519KeyPair(privateKey: [UInt8](repeating: curve, count: 32))
        let object: JSONValue = .object([
            "user_id": .string(listedUser ?? user), "device_id": .string(device),
            "algorithms": ["m.olm.v1.curve25519-aes-sha2", "m.megolm.v1.aes-sha2"],
            "keys": .object(["curve25519:\(device)": .string(UnpaddedBase64.encode(identity.publicKey)),
                             "ed25519:\(device)": .string(UnpaddedBase64.encode(signing.publicKey))]),
            "unsigned": ["device_display_name": "ann's laptop"],
        ])
        let signer = try signWith.map { try Ed25519KeyPair(seed: [UInt8](repeating: $0, count: 32)) } ?? signing
        return try JSONSigning.sign(object, userID: listedUser ?? user, keyID: device, key: signer)
    }

    private func answer(_ users: [String: [String: JSONValue]]) -> JSONValue {
        .object(["device_keys": .object(users.mapValues { .object($0) })])
    }

    func testDeviceKeysAreTakenOnlyWhenTheyCheck() throws {
        let good = try DeviceKeys(deviceKeys(user: "@ann:hs", device: "DEV", seed: 3), userID: "@ann:hs", deviceID: "DEV")
        XCTAssertEqual(good.displayName, "ann's laptop")
        XCTAssertEqual(good.algorithms.count, 2)
        XCTAssertThrowsError(try DeviceKeys(deviceKeys(user: "@ann:hs", device: "DEV", seed: 3), userID: "@bob:hs", deviceID: "DEV"))
        XCTAssertThrowsError(try DeviceKeys(deviceKeys(user: "@ann:hs", device: "DEV", seed: 3), userID: "@ann:hs", deviceID: "OTHER"))
        XCTAssertThrowsError(try DeviceKeys(deviceKeys(user: "@ann:hs", device: "DEV", seed: 3, signWith: 4), userID: "@ann:hs", deviceID: "DEV"),
                             "signed by another key")
        var tampered = try deviceKeys(user: "@ann:hs", device: "DEV", seed: 3).object!
        tampered["algorithms"] = ["m.olm.v1.curve25519-aes-sha2"]
        XCTAssertThrowsError(try DeviceKeys(.object(tampered), userID: "@ann:hs", deviceID: "DEV"), "changed after signing")
        XCTAssertThrowsError(try DeviceKeys("not an object", userID: "@ann:hs", deviceID: "DEV"))
    }

    func testLibolmsSignatureOfDeviceKeysChecksHere() throws {
        var memory = [UInt8](repeating: 0, count: olm_account_size())
        try memory.withUnsafeMutableBytes { buffer in
            let account = olm_account(buffer.baseAddress!)
            var random = [UInt8](repeating: 9, count: olm_create_account_random_length(account))
            XCTAssertNotEqual(olm_create_account(account, &random, random.count), olm_error())
            var idKeys = [UInt8](repeating: 0, count: olm_account_identity_keys_length(account))
            let idLength = olm_account_identity_keys(account, &idKeys, idKeys.count)
            let identity = try JSONValue(parsing: Data(idKeys.prefix(idLength)))
            var object: JSONValue = .object([
                "user_id": "@olm:hs", "device_id": "OLMDEV", "algorithms": ["m.olm.v1.curve25519-aes-sha2"],
                "keys": .object(["curve25519:OLMDEV": identity["curve25519"]!, "ed25519:OLMDEV": identity["ed25519"]!]),
            ])
            var message = try CanonicalJSON.encode(object)
            var signature = [UInt8](repeating: 0, count: olm_account_signature_length(account))
            XCTAssertNotEqual(olm_account_sign(account, &message, message.count, &signature, signature.count), olm_error())
            object = .object(object.object!.merging(["signatures": .object(["@olm:hs": .object(["ed25519:OLMDEV": .string(String(decoding: signature, as: UTF8.self))])])]) { $1 })
            let keys = try DeviceKeys(object, userID: "@olm:hs", deviceID: "OLMDEV")
            XCTAssertEqual(keys.curve25519, identity["curve25519"]?.string)
        }
    }

    func testTheListFollowsSyncAndAnswers() throws {
        var tracker = DeviceListTracker()
        tracker.track(["@ann:hs", "@bob:hs"])
        XCTAssertEqual(tracker.nextQuery(), ["@ann:hs", "@bob:hs"])
        XCTAssertEqual(tracker.nextQuery(), [], "in flight: not asked twice")
        let refused = tracker.queryAnswered(["@ann:hs", "@bob:hs"], answer: answer([
            "@ann:hs": ["A1": try deviceKeys(user: "@ann:hs", device: "A1", seed: 1),
                        "A2": try deviceKeys(user: "@ann:hs", device: "A2", seed: 2, signWith: 7)],
            "@bob:hs": ["B1": try deviceKeys(user: "@bob:hs", device: "B1", seed: 3)],
        ]))
        tracker._checkInvariants()
        XCTAssertEqual(refused.map(\.deviceID), ["A2"])
        XCTAssertEqual(tracker.devices["@ann:hs"]?.keys.sorted(), ["A1"])
        XCTAssertTrue(tracker.outdated.isEmpty)
        tracker.applySync(changed: ["@ann:hs", "@stranger:hs"], left: ["@bob:hs"])
        tracker._checkInvariants()
        XCTAssertEqual(tracker.outdated, ["@ann:hs"], "a user not followed is not asked about")
        XCTAssertNil(tracker.devices["@bob:hs"], "a user who left is forgotten")
    }

    func testAChangeDuringAQueryKeepsTheUserOutdated() throws {
        var tracker = DeviceListTracker()
        tracker.track(["@ann:hs"])
        let batch = tracker.nextQuery()
        tracker.applySync(changed: ["@ann:hs"], left: [])
        tracker.queryAnswered(batch, answer: answer(["@ann:hs": ["A1": try deviceKeys(user: "@ann:hs", device: "A1", seed: 1)]]))
        tracker._checkInvariants()
        XCTAssertEqual(tracker.outdated, ["@ann:hs"], "the answer may predate the change")
        XCTAssertEqual(tracker.nextQuery(), ["@ann:hs"])
        tracker.queryAnswered(["@ann:hs"], answer: answer(["@ann:hs": [:]]))
        XCTAssertTrue(tracker.outdated.isEmpty)
        XCTAssertEqual(tracker.devices["@ann:hs"], [:], "an empty list is a user with no devices")
    }

    func testAKnownDevicesNewKeyIsRefusedAndAnUnansweredUserStaysOutdated() throws {
        var tracker = DeviceListTracker()
        tracker.track(["@ann:hs", "@far:remote"])
        let batch = tracker.nextQuery()
        tracker.queryAnswered(batch, answer: answer(["@ann:hs": ["A1": try deviceKeys(user: "@ann:hs", device: "A1", seed: 1)]]))
        XCTAssertEqual(tracker.outdated, ["@far:remote"], "the server had no answer for a remote user")
        let first = tracker.devices["@ann:hs"]?["A1"]?.ed25519
        tracker.applySync(changed: ["@ann:hs"], left: [])
        let refused = tracker.queryAnswered(tracker.nextQuery(), answer: answer(["@ann:hs": ["A1": try deviceKeys(user: "@ann:hs", device: "A1", seed: 5)]]))
        XCTAssertEqual(refused.first?.reason, "its Ed25519 key changed")
        XCTAssertEqual(tracker.devices["@ann:hs"]?["A1"]?.ed25519, first)
        tracker.queryFailed(["@far:remote"])
        XCTAssertEqual(tracker.nextQuery(), ["@far:remote"], "a failed query is asked again")
        let stored = try JSONDecoder().decode(DeviceListTracker.self, from: JSONEncoder().encode(tracker))
        XCTAssertEqual(stored.outdated, tracker.outdated)
        var restarted = stored
        XCTAssertEqual(restarted.nextQuery(), ["@far:remote"], "nothing is in flight after a restart")
    }

    /// A change noted during a query is forgotten when that query ends, however it ends: else a
    /// later, fresh answer would be taken as stale and the user stay outdated.
    func testAChangeNotedDuringAQueryEndsWithItWhenTheAnswerOmitsTheUserOrTheyLeft() throws {
        let fresh = answer(["@ann:hs": ["A1": try deviceKeys(user: "@ann:hs", device: "A1", seed: 1)]])
        var omitted = DeviceListTracker()
        omitted.track(["@ann:hs"])
        let batch = omitted.nextQuery()
        omitted.applySync(changed: ["@ann:hs"], left: [])
        omitted.queryAnswered(batch, answer: answer([:]))
        XCTAssertEqual(omitted.outdated, ["@ann:hs"], "no answer for her: still outdated")
        omitted.queryAnswered(omitted.nextQuery(), answer: fresh)
        omitted._checkInvariants()
        XCTAssertTrue(omitted.outdated.isEmpty, "the second answer came after the change")

        var left = DeviceListTracker()
        left.track(["@ann:hs"])
        let leftBatch = left.nextQuery()
        left.applySync(changed: ["@ann:hs"], left: [])
        left.applySync(changed: [], left: ["@ann:hs"])
        left.queryAnswered(leftBatch, answer: fresh)
        left.track(["@ann:hs"])
        left.queryAnswered(left.nextQuery(), answer: fresh)
        left._checkInvariants()
        XCTAssertTrue(left.outdated.isEmpty, "the answer after she came back is fresh")
        XCTAssertEqual(left.devices["@ann:hs"]?.keys.sorted(), ["A1"])
    }
}
