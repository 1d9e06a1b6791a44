import Foundation
import MatrixCrypto
import ThreadModel
import XCTest
@testable import CommentTUI

/// The pure steps of `RecoveryKeyVerification`: which secret opens what, and the checks against
/// the published identity and device that no well-behaved server makes fail (so the Synapse
/// tests cannot reach them).
final class RecoveryKeyPlanTests: XCTestCase {
    private let userID = "@ann:example.org"
    private let deviceID = "ANNDEVICE"
    private var random = SystemRandom()

    /// The account data of secret storage under a new key holding `keys`, and the key.
    private func secretStorage(holding keys: CrossSigningKeys, checked: Bool = true) throws -> ([String: JSONValue], SecretStorageKey) {
        let (key, description) = try SecretStorageKey.generate(keyID: "KEYID", name: nil, random: &random)
        var content = description.content
        if !checked, var members = content.object {
            members["iv"] = nil
            members["mac"] = nil
            content = .object(members)
        }
        var accountData = try keys.secretEventContents(for: key, random: &random)
        accountData[SecretStorageKeyDescription.defaultKeyEventType] = ["key": "KEYID"]
        accountData[SecretStorageKeyDescription.eventType(keyID: "KEYID")] = content
        return (accountData, key)
    }

    /// A `/keys/query` answer publishing `identity` and `device` as our device.
    private func keysQuery(identity: CrossSigningIdentity, device: JSONValue?) -> JSONValue {
        var devices: [String: JSONValue] = [:]
        if let device { devices[deviceID] = device }
        return [
            "device_keys": .object([userID: .object(devices)]),
            "master_keys": .object([userID: identity.master.json]),
            "self_signing_keys": .object([userID: identity.selfSigning.json]),
        ]
    }

    func testTheRecoveryKeyOrNothingOpensSecretStorage() throws {
        let keys = try CrossSigningKeys.generate(userID: userID, random: &random)
        let (accountData, key) = try secretStorage(holding: keys)
        let opened = try RecoveryKeyVerification.crossSigningKeys(secret: .recoveryKey(key.recoveryKey.displayed), accountData: accountData, userID: userID)
        XCTAssertEqual(opened.selfSigning.publicKey, keys.selfSigning.publicKey)
        let other = RecoveryKey(key: Array(repeating: 1, count: 32)).displayed
        XCTAssertThrowsError(try RecoveryKeyVerification.crossSigningKeys(secret: .recoveryKey(other), accountData: accountData, userID: userID)) {
            XCTAssertEqual($0 as? SecretStorageRefusal, .wrongRecoveryKey)
        }
        XCTAssertThrowsError(try RecoveryKeyVerification.crossSigningKeys(secret: .recoveryKey(other), accountData: [:], userID: userID)) {
            XCTAssertEqual($0 as? RecoveryKeyVerification.Refusal, .noSecretStorage)
        }
        XCTAssertEqual("\(RecoveryKeyVerification.Secret.recoveryKey(key.recoveryKey.displayed))", "recovery key (not shown)")
    }

    func testAKeyWithoutItsCheckIsStillCalledTheWrongKey() throws {
        let keys = try CrossSigningKeys.generate(userID: userID, random: &random)
        let (accountData, key) = try secretStorage(holding: keys, checked: false)
        XCTAssertNoThrow(try RecoveryKeyVerification.crossSigningKeys(secret: .recoveryKey(key.recoveryKey.displayed), accountData: accountData, userID: userID))
        XCTAssertThrowsError(try RecoveryKeyVerification.crossSigningKeys(secret: .recoveryKey(RecoveryKey(key: Array(repeating: 2, count: 32)).displayed),
                                                                         accountData: accountData, userID: userID)) {
            XCTAssertEqual($0 as? SecretStorageRefusal, .wrongRecoveryKey)
        }
    }

    func testThePlanSignsOurDeviceOnlyUnderThePublishedIdentity() throws {
        let keys = try CrossSigningKeys.generate(userID: userID, random: &random)
        let account = try OlmAccount(random: &random)
        let ours = try account.deviceKeys(userID: userID, deviceID: deviceID)
        let plan = try RecoveryKeyVerification.plan(keys: keys, keysQuery: keysQuery(identity: keys.publicIdentity(), device: ours),
                                                    account: account, deviceID: deviceID)
        XCTAssertFalse(plan.alreadySigned)
        let signed = try XCTUnwrap(plan.signatures[userID]?[deviceID])
        XCTAssertTrue(try keys.publicIdentity().hasCrossSigned(deviceKeys: signed))
        XCTAssertNotNil(plan.signatures[userID]?[UnpaddedBase64.encode(keys.master.publicKey)], "the master key signed by the device goes along")
        let again = try RecoveryKeyVerification.plan(keys: keys, keysQuery: keysQuery(identity: keys.publicIdentity(), device: signed),
                                                     account: account, deviceID: deviceID)
        XCTAssertTrue(again.alreadySigned)

        let published = try CrossSigningKeys.generate(userID: userID, random: &random).publicIdentity()
        XCTAssertThrowsError(try RecoveryKeyVerification.plan(keys: keys, keysQuery: keysQuery(identity: published, device: ours),
                                                              account: account, deviceID: deviceID)) {
            XCTAssertEqual("\($0)", "the cross-signing keys in secret storage are not the ones the server publishes for \(userID)")
        }
        XCTAssertThrowsError(try RecoveryKeyVerification.plan(keys: keys, keysQuery: ["device_keys": [:]], account: account, deviceID: deviceID)) {
            XCTAssertEqual($0 as? RecoveryKeyVerification.Refusal, .noIdentity)
        }
        XCTAssertThrowsError(try RecoveryKeyVerification.plan(keys: keys, keysQuery: keysQuery(identity: keys.publicIdentity(), device: nil),
                                                              account: account, deviceID: deviceID)) {
            XCTAssertTrue("\($0)".contains("does not list this device"), "\($0)")
        }
        let another = try OlmAccount(random: &random).deviceKeys(userID: userID, deviceID: deviceID)
        XCTAssertThrowsError(try RecoveryKeyVerification.plan(keys: keys, keysQuery: keysQuery(identity: keys.publicIdentity(), device: another),
                                                              account: account, deviceID: deviceID)) {
            XCTAssertTrue("\($0)".contains("other keys for this device"), "\($0)")
        }
    }
}
