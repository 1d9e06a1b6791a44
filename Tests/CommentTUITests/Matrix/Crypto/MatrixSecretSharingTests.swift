import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// Secret sharing between two of our own devices against Synapse (`m.secret.request` /
/// `m.secret.send`): device A, verified with the recovery key (mautrix set recovery up) and
/// holding the backup key, signs device B as emoji verification does at its end; B, whose end
/// of it marked our master key verified, waits for that signature, then asks all our devices;
/// A answers over Olm, and B then holds the cross-signing keys and the backup key, and signs as
/// A can, without the recovery key; it tells the others to drop its requests. Device C, ours
/// but not verified, asks too and gets nothing.
final class MatrixSecretSharingTests: SharedSynapseTestCase {
    /// One of Ann's devices: its login, our keys in a folder of its own (uploaded) and its sync.
    private struct Device {
        let client: MatrixClient
        let deviceID: String
        let keys: MatrixRoomKeys
        var since: String?
    }

    private func device(_ client: MatrixClient, id: String, of user: String, in folder: URL) throws -> Device {
        let environment = ["XDG_DATA_HOME": folder.appendingPathComponent("data").path,
                           "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path]
        let keys = try MatrixRoomKeys(client: client, userID: user, deviceID: id,
                                      location: XCTUnwrap(CryptoStoreLocation(userID: user, deviceID: id, environment: environment)))
        XCTAssertEqual(keys.take(["to_device": ["events": []]]), [], "the device's keys went up")
        return Device(client: client, deviceID: id, keys: keys)
    }

    /// Syncs `device`, handing each answer to its keys, until `done` says the to-device events
    /// so far are enough (bounded); those events and the problems its keys told.
    @discardableResult
    private func sync(_ device: inout Device, until done: ([JSONValue]) -> Bool) throws -> (events: [JSONValue], problems: [String]) {
        var events: [JSONValue] = [], problems: [String] = []
        let deadline = Date().addingTimeInterval(20)
        repeat {
            let answer = try device.client.sync(since: device.since, filter: ["room": ["rooms": []]], wait: 1)
            device.since = answer["next_batch"]?.string
            events += answer["to_device"]?["events"]?.array ?? []
            problems += device.keys.take(answer)
        } while !done(events) && Date() < deadline
        return (events, problems)
    }

    private func secretRequests(_ events: [JSONValue], action: String, from deviceID: String) -> [JSONValue] {
        events.filter {
            $0["type"]?.string == "m.secret.request" && $0["content"]?["action"]?.string == action
                && $0["content"]?["requesting_device_id"]?.string == deviceID
        }
    }

    func testAVerifiedDeviceOfOursGetsTheSecretsAndAnUnverifiedOneDoesNot() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server)
        let me = ann.account.userID
        let recoveryKey = try MautrixPeer(homeserver: server.baseURL, userID: me, password: ann.account.password).setUpRecovery().recoveryKey
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("secret-sharing-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }

        // A: verified with the recovery key, and holding the key of the account's backup.
        var a = try device(ann.client, id: ann.account.deviceID, of: me, in: folder.appendingPathComponent("a"))
        let verified = try a.keys.lock.withLock { try a.keys.device.verify(with: .recoveryKey(recoveryKey), client: ann.client) }
        var random = SystemRandom()
        let backup = try Curve25519KeyPair(random: &random)
        try ann.client.request("POST", ["room_keys", "version"], body: [
            "algorithm": "m.megolm_backup.v1.curve25519-aes-sha2", "auth_data": ["public_key": .string(UnpaddedBase64.encode(backup.publicKey))],
        ])
        try a.keys.device.store.put(try MegolmBackupKey(privateKey: backup.privateKey), id: "key", in: MatrixRoomKeys.backupKey)

        // B and C: new logins of Ann, fresh.
        func login(_ name: String) throws -> Device {
            let session = try MatrixClient(homeserver: server.baseURL).login(user: me, password: ann.account.password)
            return try device(MatrixClient(homeserver: server.baseURL, accessToken: session.accessToken), id: session.deviceID, of: me,
                              in: folder.appendingPathComponent(name))
        }
        var b = try login("b"), c = try login("c")
        XCTAssertEqual(b.keys.device.missingSecrets, SharedSecret.Name.allCases)

        // B's end of an emoji verification with A: our master key marked verified here, as
        // `MatrixVerifications.applyTrust` leaves it. Until A's signature of B is on the server,
        // B waits, asking nothing.
        try b.keys.lock.withLock {
            var sas = MatrixVerifications.VerifiedKeys()
            sas.users[me] = verified.masterKey
            try b.keys.device.store.put(sas, id: "verified", in: MatrixVerifications.verifiedKeys)
        }
        XCTAssertEqual(b.keys.take(["to_device": ["events": []]]), [])
        XCTAssertFalse(b.keys.device.isCrossSigned)
        XCTAssertTrue(b.keys.lock.withLock { b.keys.secretRequests.isEmpty })
        // A's end: it signs B with the self-signing key it holds.
        let ownKeys = try XCTUnwrap(a.keys.device.store.value("own", in: MatrixDeviceCrypto.crossSigningKeys))
        let publishedB = try XCTUnwrap(ann.client.queryKeys(users: [me])["device_keys"]?[me]?[b.deviceID])
        try ann.client.uploadSignatures(ownKeys.signaturesUploadBody(deviceKeys: publishedB))
        b.keys.clock = { Date().addingTimeInterval(MatrixRoomKeys.ownSignatureRepeat + 1) }

        // C, not verified, asks A itself (our client would not ask before it is verified).
        try c.client.sendToDevice(type: "m.secret.request", transactionID: "c-asks", messages: [me: [a.deviceID: [
            "action": "request", "name": "m.cross_signing.self_signing", "request_id": "c-1", "requesting_device_id": .string(c.deviceID),
        ]]])
        // B, seeing the signature, counts as verified and asks all our devices for the four secrets.
        XCTAssertEqual(b.keys.take(["to_device": ["events": []]]), [])
        XCTAssertTrue(b.keys.device.isCrossSigned)
        XCTAssertEqual(Set(b.keys.lock.withLock { b.keys.secretRequests.keys }), Set(SharedSecret.Name.allCases))

        // A answers B and refuses C.
        let (idB, idC) = (b.deviceID, c.deviceID)
        let atA = try sync(&a) { self.secretRequests($0, action: "request", from: idB).count == 4 && !self.secretRequests($0, action: "request", from: idC).isEmpty }
        XCTAssertEqual(atA.problems, ["a secret request was not answered: the requesting device is not verified by our cross-signing identity"])

        // B takes them: it holds the cross-signing keys and the backup key, without the recovery key.
        let keysOfB = b.keys
        let atB = try sync(&b) { _ in keysOfB.device.missingSecrets.isEmpty }
        XCTAssertEqual(atB.problems, [])
        XCTAssertEqual(b.keys.device.missingSecrets, [])
        let keysB = try XCTUnwrap(b.keys.device.store.value("own", in: MatrixDeviceCrypto.crossSigningKeys))
        let identity = try XCTUnwrap(CrossSigningIdentity.fromKeysQuery(b.client.queryKeys(users: [me]), userID: me))
        XCTAssertNoThrow(try keysB.checkMatches(identity))
        XCTAssertEqual(b.keys.device.heldSecret(.backup), UnpaddedBase64.encode(backup.privateKey))
        // And signs as A can: C, signed by B, is cross-signed on the server.
        let publishedC = try XCTUnwrap(b.client.queryKeys(users: [me])["device_keys"]?[me]?[c.deviceID])
        XCTAssertFalse(identity.hasCrossSigned(deviceKeys: publishedC))
        try b.client.uploadSignatures(keysB.signaturesUploadBody(deviceKeys: publishedC))
        XCTAssertTrue(identity.hasCrossSigned(deviceKeys: try XCTUnwrap(b.client.queryKeys(users: [me])["device_keys"]?[me]?[c.deviceID])))

        // B tells our devices to drop its answered requests; A takes that quietly.
        XCTAssertEqual(b.keys.take(["to_device": ["events": []]]), [])
        let cancelled = try sync(&a) { self.secretRequests($0, action: "request_cancellation", from: idB).count == 4 }
        XCTAssertEqual(Set(secretRequests(cancelled.events, action: "request_cancellation", from: b.deviceID).compactMap { $0["content"]?["request_id"]?.string }),
                       Set(b.keys.lock.withLock { b.keys.secretRequests.values.map(\.id) }))
        XCTAssertEqual(cancelled.problems, [])

        // C never got anything encrypted from A.
        let atC = try sync(&c) { !self.secretRequests($0, action: "request", from: idB).isEmpty }
        XCTAssertEqual(atC.events.filter { $0["type"]?.string == "m.room.encrypted" }.count, 0)
        XCTAssertEqual(c.keys.device.missingSecrets, SharedSecret.Name.allCases)
    }
}
