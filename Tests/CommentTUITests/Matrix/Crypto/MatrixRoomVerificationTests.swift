import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// Two users, each on a client of ours, verify each other in their encrypted room: the request
/// and every step go into the room encrypted, never in the clear; each marks the other verified
/// and signs the other's master key with their user-signing key; the other device of the one
/// who answered sees it answered and drops its offer.
final class MatrixRoomVerificationTests: SharedSynapseTestCase {
    /// Publishes new cross-signing keys for `user` and keeps them in `device`'s store.
    private func crossSign(_ user: MatrixTestUser, holder device: VerifyingDevice) throws -> CrossSigningKeys {
        var random = SystemRandom()
        let keys = try CrossSigningKeys.generate(userID: user.account.userID, random: &random)
        let identity = try keys.publicIdentity()
        func foundation(_ value: JSONValue?) throws -> Any { try JSONSerialization.jsonObject(with: XCTUnwrap(value).serialized()) }
        let answer = try user.other.request(method: "POST", path: "/_matrix/client/v3/keys/device_signing/upload", body: [
            "master_key": try foundation(identity.master.json), "self_signing_key": try foundation(identity.selfSigning.json),
            "user_signing_key": try foundation(identity.userSigning?.json),
            "auth": ["type": "m.login.password", "identifier": ["type": "m.id.user", "user": user.account.userID],
                     "password": user.account.password],
        ])
        XCTAssertEqual(answer.status, 200, "\(answer.json)")
        try device.keys.device.store.put(keys, id: "own", in: MatrixDeviceCrypto.crossSigningKeys)
        return keys
    }

    func testTwoUsersVerifyEachOtherInTheirEncryptedRoomAndSignEachOthersMasterKey() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server)
        let bo = try registerUser("bo", on: server)
        let room = try ann.other.createRoom(invite: [bo.account.userID], initialState: [
            ["type": "m.room.encryption", "state_key": "", "content": ["algorithm": "m.megolm.v1.aes-sha2"]],
        ])
        _ = try bo.other.join(room)
        let annDevice = try verifyingDevice(userID: ann.account.userID, deviceID: ann.account.deviceID, token: ann.account.accessToken)
        let boDevice = try verifyingDevice(userID: bo.account.userID, deviceID: bo.account.deviceID, token: bo.account.accessToken)
        let boLogin = try secondLogin(bo.account)
        let boElsewhere = try verifyingDevice(userID: bo.account.userID, deviceID: boLogin.deviceID, token: boLogin.token)
        annDevice.room = room
        boDevice.room = room
        boElsewhere.room = room
        let annKeys = try crossSign(ann, holder: annDevice)
        let boKeys = try crossSign(bo, holder: boDevice)

        let id = try annDevice.keys.verifications.request(userID: bo.account.userID, inRoom: room)
        var shown: [String: [Int]] = [:]
        // Bo's other device syncs too, all along, and must not get in the way.
        try drive([annDevice, boDevice, boElsewhere], act: {
            for device in [annDevice, boDevice] {
                for verification in device.verifications {
                    switch verification.stage {
                    case .incoming: device.keys.verifications.accept(verification.id)
                    case .comparing:
                        shown[device.keys.device.userID] = verification.decimals
                        device.keys.verifications.confirm(verification.id)
                    default: break
                    }
                }
            }
        }, until: { [annDevice, boDevice].allSatisfy { [.verified, .cancelled].contains($0.verifications.first?.stage) } })
        // Bo's other device was offered the request too, and saw his first device answer it.
        try drive([boElsewhere], until: { boElsewhere.verifications.first?.stage == .cancelled })
        XCTAssertEqual(boElsewhere.verifications.first?.id, id)
        XCTAssertEqual(boElsewhere.verifications.first?.cancelCode, .accepted)

        XCTAssertEqual(shown.count, 2)
        XCTAssertEqual(shown[ann.account.userID], shown[bo.account.userID], "both showed the same numbers")
        let ours = try XCTUnwrap(annDevice.keys.verifications.verification(id))
        let theirs = try XCTUnwrap(boDevice.verifications.first)
        XCTAssertEqual(ours.stage, .verified, ours.words)
        XCTAssertEqual(theirs.stage, .verified, theirs.words)
        XCTAssertEqual(theirs.id, id, "the flow is the request's event id")
        XCTAssertTrue(annDevice.keys.verifications.isVerified(user: bo.account.userID, masterKey: UnpaddedBase64.encode(boKeys.master.publicKey)))
        XCTAssertTrue(boDevice.keys.verifications.isVerified(user: ann.account.userID, masterKey: UnpaddedBase64.encode(annKeys.master.publicKey)))
        XCTAssertEqual(ours.trustNote, "\(bo.account.userID) marked verified here; signed with your user-signing key")

        // Ann's user-signing key signed Bo's master key, on the server.
        let query = try annDevice.client.queryKeys(users: [bo.account.userID])
        let boMaster = try XCTUnwrap(query["master_keys"]?[bo.account.userID])
        let usk = UnpaddedBase64.encode(annKeys.userSigning.publicKey)
        XCTAssertTrue(JSONSigning.verify(boMaster, userID: ann.account.userID, keyID: usk, publicKey: annKeys.userSigning.publicKey))

        // Nothing of the verification went into the room in the clear.
        let events = try ann.other.messages(roomID: room, limit: 50)
        let types = events.compactMap { $0["type"] as? String }
        XCTAssertGreaterThanOrEqual(types.filter { $0 == "m.room.encrypted" }.count, 6, "\(types)")
        XCTAssertFalse(types.contains { $0.hasPrefix("m.key.verification.") }, "\(types)")
        XCTAssertFalse(events.contains { ($0["content"] as? [String: Any])?["msgtype"] as? String == "m.key.verification.request" })
    }

    func testARequestInAnEncryptedRoomNotOpenHereIsOfferedFromTheAccountsSync() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server)
        let bo = try registerUser("bo", on: server)
        let room = try ann.other.createRoom(invite: [bo.account.userID], initialState: [
            ["type": "m.room.encryption", "state_key": "", "content": ["algorithm": "m.megolm.v1.aes-sha2"]],
        ])
        _ = try bo.other.join(room)
        let annDevice = try verifyingDevice(userID: ann.account.userID, deviceID: ann.account.deviceID, token: ann.account.accessToken)
        // Bo's device never opens the room.
        let boDevice = try verifyingDevice(userID: bo.account.userID, deviceID: bo.account.deviceID, token: bo.account.accessToken)
        let id = try annDevice.keys.verifications.request(userID: bo.account.userID, inRoom: room)

        // The account's one sync, every room lean, as the client runs it: the keys take it whole.
        let answer = try boDevice.client.sync(since: nil, filter: MatrixAccountFilter.lean, wait: 0)
        boDevice.keys.take(answer)
        boDevice.keys.verifications.waitForRoomEvents()
        let offered = try XCTUnwrap(boDevice.verifications.first)
        XCTAssertEqual(offered.id, id)
        XCTAssertEqual(offered.stage, .incoming)
        XCTAssertEqual(offered.userID, ann.account.userID)
    }
}
