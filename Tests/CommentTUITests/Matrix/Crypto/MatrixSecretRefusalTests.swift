import Foundation
import MatrixCrypto
import ThreadModel
import XCTest
@testable import CommentTUI

/// Secret sharing's checks that need no server (the server is a closed port: a check that
/// reached for it would fail in other words): a secret from another user or one this device did
/// not ask for is dropped; a request from another user is refused, our own and one for a secret
/// we do not hold are passed over; nothing is asked before this device is verified.
final class MatrixSecretRefusalTests: XCTestCase {
    private let me = "@ann:test.local"

    private func keys() throws -> MatrixRoomKeys {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("secrets-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let location = CryptoStoreLocation(parent: folder.appendingPathComponent("data").path, keyFolder: folder.appendingPathComponent("config").path,
                                           userID: me, deviceID: "ANN")
        return try MatrixRoomKeys(client: MatrixClient(homeserver: URL(string: "http://127.0.0.1:9")!, accessToken: "t"),
                                  userID: me, deviceID: "ANN", location: location)
    }

    /// An `m.secret.send` as `sender`'s device would send it to us.
    private func payload(requestID: String, secret: String, sender: String, keys: MatrixRoomKeys) throws -> OlmPayload {
        let plaintext = try OlmPayload.plaintext(type: "m.secret.send", content: ["request_id": .string(requestID), "secret": .string(secret)],
                                                 sender: sender, senderDevice: "OTHER", senderEd25519: "ZWQ", recipient: me,
                                                 recipientEd25519: keys.device.fingerprint)
        return try OlmPayload(plaintext: plaintext, sender: sender, ourUserID: me, ourEd25519: keys.device.fingerprint, knownSenderEd25519: nil)
    }

    func testASecretFromAnotherUserOrNotAskedForIsDropped() throws {
        let keys = try keys()
        let seed = UnpaddedBase64.encode([UInt8](repeating: 3, count: 32))
        keys.lock.withLock { keys.secretRequests[.master] = .init(id: "asked", count: 1, at: Date()) }
        func take(_ requestID: String, from sender: String) throws {
            try keys.takeSecret(payload(requestID: requestID, secret: seed, sender: sender, keys: keys), sender: sender, senderKey: "c2VuZGVy")
        }
        XCTAssertThrowsError(try take("asked", from: "@mallory:test.local")) { XCTAssertTrue("\($0)".contains("another user"), "\($0)") }
        XCTAssertThrowsError(try take("never-asked", from: me)) { XCTAssertTrue("\($0)".contains("did not ask for it"), "\($0)") }
        XCTAssertNil(keys.device.heldSecret(.master), "nothing kept")
        XCTAssertEqual(keys.device.missingSecrets, SharedSecret.Name.allCases)
    }

    func testARequestFromAnotherUserIsRefusedAndOursOrForASecretNotHeldPassedOver() throws {
        let keys = try keys()
        func request(_ name: String, from sender: String, device: String) throws {
            let content: JSONValue = ["action": "request", "name": .string(name), "request_id": "r1", "requesting_device_id": .string(device)]
            try keys.answerSecretRequest(content, sender: sender)
        }
        XCTAssertThrowsError(try request("m.cross_signing.master", from: "@mallory:test.local", device: "EVIL")) {
            XCTAssertTrue("\($0)".contains("another user"), "\($0)")
        }
        XCTAssertNoThrow(try request("m.cross_signing.master", from: me, device: "ANN"), "our own request, sent to all our devices")
        XCTAssertNoThrow(try request("m.megolm_backup.v1", from: me, device: "OTHER"), "a secret we do not hold: another device may")
        XCTAssertThrowsError(try request("m.something.else", from: me, device: "OTHER")) {
            XCTAssertTrue("\($0)".contains("does not share"), "\($0)")
        }
        // Held, but this device is not verified itself: refused before anything is asked of the server.
        try keys.device.store.put(try MegolmBackupKey(privateKey: [UInt8](repeating: 5, count: 32)), id: "key", in: MatrixRoomKeys.backupKey)
        XCTAssertThrowsError(try request("m.megolm_backup.v1", from: me, device: "OTHER")) {
            XCTAssertTrue("\($0)".contains("not verified itself"), "\($0)")
        }
    }

    func testNothingIsAskedBeforeThisDeviceIsVerified() throws {
        let keys = try keys()
        var problems: [String] = []
        keys.requestMissingSecrets(problems: &problems)
        XCTAssertEqual(problems, [], "not asked: our other devices would not answer an unverified one")
        XCTAssertTrue(keys.lock.withLock { keys.secretRequests.isEmpty })
    }
}
