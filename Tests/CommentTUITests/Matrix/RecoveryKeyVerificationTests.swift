import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// Our device verified with the account's recovery key on a real Synapse, the account's recovery
/// set up by mautrix (the strict, Element-like peer): cross-signed as another user sees it (with
/// our `CrossSigningTrust`, and as mautrix sees it), refused in words otherwise, nothing uploaded.
final class RecoveryKeyVerificationTests: SharedSynapseTestCase {
    private func folder() -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recovery-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    private func device(_ user: MatrixTestUser, in folder: URL) throws -> MatrixDeviceCrypto {
        let location = CryptoStoreLocation(parent: folder.appendingPathComponent("data").path, keyFolder: folder.appendingPathComponent("config").path,
                                           userID: user.account.userID, deviceID: user.account.deviceID)
        return try MatrixDeviceCrypto(userID: user.account.userID, deviceID: user.account.deviceID, location: location)
    }

    private func peer(_ user: MatrixTestUser, on server: SynapseServer) -> MautrixPeer {
        MautrixPeer(homeserver: server.baseURL, userID: user.account.userID, password: "pw-\(user.localpart)")
    }

    /// How `observer` sees `user`'s device `deviceID` through `/keys/query` and our trust code.
    private func status(of user: MatrixTestUser, device deviceID: String, seenBy observer: MatrixTestUser) throws -> CrossSigningTrust.DeviceStatus {
        let answer = try observer.client.queryKeys(users: [user.account.userID])
        let keys = try XCTUnwrap(answer["device_keys"]?[user.account.userID]?[deviceID], "the device is listed")
        return CrossSigningTrust().deviceStatus(deviceKeys: keys, identity: try CrossSigningIdentity.fromKeysQuery(answer, userID: user.account.userID))
    }

    /// Whether the server holds device keys for `user`'s device `deviceID`.
    private func hasDeviceKeys(_ user: MatrixTestUser, _ deviceID: String, seenBy observer: MatrixTestUser) throws -> Bool {
        try observer.client.queryKeys(users: [user.account.userID])["device_keys"]?[user.account.userID]?[deviceID] != nil
    }

    func testTheRecoveryKeyCrossSignsOurDeviceAsAnotherUserAndMautrixSeeIt() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server)
        let bo = try registerUser("bo", on: server)
        let recovery = try peer(ann, on: server).setUpRecovery()
        let home = folder()
        let device = try device(ann, in: home)
        try device.uploadKeys(client: ann.client)
        XCTAssertEqual(try status(of: ann, device: ann.account.deviceID, seenBy: bo),
                       .notCrossSigned(reason: "its user's self-signing key has not signed it"), "not before the key")
        XCTAssertEqual(try peer(bo, on: server).trust(ofDevice: ann.account.deviceID, of: ann.account.userID), "unverified")

        let outcome = try device.verify(with: .recoveryKey(recovery.recoveryKey), client: ann.client)
        XCTAssertEqual(outcome.deviceID, ann.account.deviceID)
        XCTAssertFalse(outcome.alreadySigned)
        XCTAssertEqual(try status(of: ann, device: ann.account.deviceID, seenBy: bo), .crossSigned)
        XCTAssertEqual(try peer(bo, on: server).trust(ofDevice: ann.account.deviceID, of: ann.account.userID), "cross-signed-tofu",
                       "mautrix, which withholds room keys from devices that are not cross-signed, trusts it")

        // What the store keeps: the keys and the pinned identity, across a restart.
        let again = try self.device(ann, in: home)
        XCTAssertTrue(again.isCrossSigned)
        let kept = try XCTUnwrap(again.store.value("own", in: MatrixDeviceCrypto.crossSigningKeys))
        XCTAssertEqual(UnpaddedBase64.encode(kept.master.publicKey), outcome.masterKey)
        XCTAssertEqual(try again.store.value("trust", in: MatrixDeviceCrypto.crossSigningTrust)?.pinnedMasterKeys[ann.account.userID], outcome.masterKey)
        XCTAssertTrue(try again.verify(with: .recoveryKey(recovery.recoveryKey), client: ann.client).alreadySigned, "entered twice: nothing to do")
    }

    func testAPassphraseOpensSecretStorageSetUpWithOne() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server)
        let bo = try registerUser("bo", on: server)
        _ = try peer(ann, on: server).setUpRecovery(passphrase: "correct horse battery staple")
        let device = try device(ann, in: folder())
        XCTAssertThrowsError(try device.verify(with: .passphrase("correct horse battery stapler"), client: ann.client)) {
            XCTAssertEqual($0 as? SecretStorageRefusal, .wrongPassphrase)
        }
        XCTAssertFalse(try hasDeviceKeys(ann, ann.account.deviceID, seenBy: bo), "a wrong passphrase uploads nothing")
        XCTAssertFalse(try device.verify(with: .passphrase("correct horse battery staple"), client: ann.client).alreadySigned)
        XCTAssertEqual(try status(of: ann, device: ann.account.deviceID, seenBy: bo), .crossSigned)
    }

    func testAWrongRecoveryKeyIsRefusedAndNothingIsUploaded() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server)
        let bo = try registerUser("bo", on: server)
        let recovery = try peer(ann, on: server).setUpRecovery()
        let device = try device(ann, in: folder())
        var random = SeededRandom(seed: 33)
        let another = RecoveryKey(key: (0 ..< 32).map { _ in UInt8.random(in: 0 ... 255, using: &random) }).displayed
        XCTAssertThrowsError(try device.verify(with: .recoveryKey(another), client: ann.client)) {
            XCTAssertEqual($0 as? SecretStorageRefusal, .wrongRecoveryKey)
            XCTAssertEqual("\($0)", "this recovery key does not open this account's secret storage")
        }
        var mistyped = Array(recovery.recoveryKey)
        mistyped[5] = mistyped[5] == "a" ? "b" : "a"
        XCTAssertThrowsError(try device.verify(with: .recoveryKey(String(mistyped)), client: ann.client)) {
            XCTAssertTrue("\($0)".hasPrefix("not a recovery key"), "\($0)")
        }
        XCTAssertFalse(device.deviceKeysUploaded)
        XCTAssertFalse(try hasDeviceKeys(ann, ann.account.deviceID, seenBy: bo), "nothing uploaded")
        XCTAssertFalse(device.isCrossSigned)
        XCTAssertNil(try device.store.value("own", in: MatrixDeviceCrypto.crossSigningKeys))
    }

    func testAnAccountWithoutSecretStorageIsToldToSetUpRecoveryFirst() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server)
        let bo = try registerUser("bo", on: server)
        let device = try device(ann, in: folder())
        XCTAssertThrowsError(try device.verify(with: .recoveryKey(RecoveryKey(key: Array(repeating: 7, count: 32)).displayed), client: ann.client)) {
            XCTAssertEqual($0 as? RecoveryKeyVerification.Refusal, .noSecretStorage)
            XCTAssertTrue("\($0)".contains("set up recovery in Element first"), "\($0)")
        }
        XCTAssertFalse(try hasDeviceKeys(ann, ann.account.deviceID, seenBy: bo), "nothing uploaded")
    }
}
