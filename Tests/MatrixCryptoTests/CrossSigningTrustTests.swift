import ThreadModel
import XCTest
@testable import MatrixCrypto

/// Trust on first use of master keys, and when a device counts as cross-signed.
final class CrossSigningTrustTests: XCTestCase {
    let bob = "@bob:example.org"
    func device(_ id: String) -> JSONValue {
        ["user_id": .string(bob), "device_id": .string(id), "algorithms": ["m.megolm.v1.aes-sha2"], "keys": .object(["ed25519:\(id)": "k"])]
    }

    func testTheFirstMasterKeyIsPinnedAndAChangedOneReportedUntilAccepted() throws {
        var random = SeededBytes(seed: 7)
        let first = try CrossSigningKeys.generate(userID: bob, random: &random).publicIdentity()
        let second = try CrossSigningKeys.generate(userID: bob, random: &random).publicIdentity()
        var trust = CrossSigningTrust()
        XCTAssertEqual(trust.observe(first), .firstSeen)
        XCTAssertEqual(trust.observe(first), .unchanged)
        XCTAssertEqual(trust.observe(second), .changed(pinnedMasterKey: first.master.publicKeyBase64))
        XCTAssertEqual(trust.observe(second), .changed(pinnedMasterKey: first.master.publicKeyBase64), "still changed: not accepted")
        // Survives the store (Codable).
        let stored = try JSONDecoder().decode(CrossSigningTrust.self, from: JSONEncoder().encode(trust))
        XCTAssertEqual(stored.status(of: second), .changed(pinnedMasterKey: first.master.publicKeyBase64))
        trust.acceptChange(to: second)
        XCTAssertEqual(trust.observe(second), .unchanged)
        XCTAssertEqual(trust.status(of: first), .changed(pinnedMasterKey: second.master.publicKeyBase64))
    }

    func testADeviceIsCrossSignedOnlyByItsUsersPinnedSelfSigningKey() throws {
        var random = SeededBytes(seed: 8)
        let bobKeys = try CrossSigningKeys.generate(userID: bob, random: &random)
        let identity = try bobKeys.publicIdentity()
        var trust = CrossSigningTrust()
        let signed = try bobKeys.signDevice(device("PHONE"))
        XCTAssertEqual(trust.deviceStatus(deviceKeys: signed, identity: identity), .crossSigned, "first use")
        _ = trust.observe(identity)
        XCTAssertEqual(trust.deviceStatus(deviceKeys: signed, identity: identity), .crossSigned)
        guard case .notCrossSigned = trust.deviceStatus(deviceKeys: device("LAPTOP"), identity: identity) else {
            return XCTFail("an unsigned device")
        }
        guard case .notCrossSigned = trust.deviceStatus(deviceKeys: signed, identity: nil) else { return XCTFail("no identity") }
        // The signature covers the keys: a device whose key was swapped after signing is not cross-signed.
        var swapped = try XCTUnwrap(signed.object)
        swapped["keys"] = ["ed25519:PHONE": "another key"]
        guard case .notCrossSigned = trust.deviceStatus(deviceKeys: .object(swapped), identity: identity) else {
            return XCTFail("a changed device")
        }
        // Bob's identity replaced (say, by the server): his devices signed under it are flagged.
        let replacement = try CrossSigningKeys.generate(userID: bob, random: &random)
        let resigned = try replacement.signDevice(device("PHONE"))
        XCTAssertEqual(trust.deviceStatus(deviceKeys: resigned, identity: try replacement.publicIdentity()), .crossSignedByChangedIdentity)
        guard case .notCrossSigned = trust.deviceStatus(deviceKeys: resigned, identity: identity) else {
            return XCTFail("signed by a self-signing key the pinned identity does not have")
        }
    }
}
