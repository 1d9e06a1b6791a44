import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// Two of our own clients, two devices of one account in this process, verify each other with
/// emoji: each marks the other verified, and the one holding the account's cross-signing keys
/// signs the other with its self-signing key, which the server then shows.
final class MatrixOwnDeviceVerificationTests: SharedSynapseTestCase {
    /// Publishes new cross-signing keys for `user` (`/keys/device_signing/upload`); returns them.
    private func publishCrossSigning(for user: MatrixTestUser) throws -> CrossSigningKeys {
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
        return keys
    }

    func testTwoOfOurDevicesVerifyEachOtherAndTheOneWithTheKeysSignsTheOther() throws {
        let ann = try registerUser("ann", on: try server)
        let crossSigning = try publishCrossSigning(for: ann)
        let second = try secondLogin(ann.account)
        let first = try verifyingDevice(userID: ann.account.userID, deviceID: ann.account.deviceID, token: ann.account.accessToken)
        try first.keys.device.store.put(crossSigning, id: "own", in: MatrixDeviceCrypto.crossSigningKeys)
        let other = try verifyingDevice(userID: ann.account.userID, deviceID: second.deviceID, token: second.token)

        // Asked without naming a device: every other device of ours gets the request.
        let id = try first.keys.verifications.request(userID: ann.account.userID, deviceID: nil)
        var shown: [String: [SasEmoji]] = [:]
        try drive([first, other], act: {
            for device in [first, other] {
                for verification in device.verifications {
                    switch verification.stage {
                    case .incoming: device.keys.verifications.accept(verification.id)
                    case .comparing:
                        shown[device.keys.device.deviceID] = verification.emoji
                        device.keys.verifications.confirm(verification.id)
                    default: break
                    }
                }
            }
        }, until: { [first, other].allSatisfy { $0.verifications.first?.stage == .verified || $0.verifications.first?.stage == .cancelled } })

        XCTAssertEqual(shown.count, 2)
        XCTAssertEqual(shown[ann.account.deviceID], shown[second.deviceID], "both showed the same emoji")
        let ours = try XCTUnwrap(first.keys.verifications.verification(id))
        let theirs = try XCTUnwrap(other.verifications.first)
        XCTAssertEqual(ours.stage, .verified, ours.words)
        XCTAssertEqual(theirs.stage, .verified, theirs.words)
        XCTAssertEqual(theirs.id, id)
        XCTAssertTrue(ours.isOwnDevice)
        XCTAssertEqual(ours.deviceID, second.deviceID)
        XCTAssertTrue(first.keys.verifications.isVerified(device: second.deviceID, of: ann.account.userID, key: other.keys.device.fingerprint))
        XCTAssertTrue(other.keys.verifications.isVerified(device: ann.account.deviceID, of: ann.account.userID, key: first.keys.device.fingerprint))
        // The first device MAC'd the master key it holds, so the second now trusts that identity.
        let master = UnpaddedBase64.encode(crossSigning.master.publicKey)
        XCTAssertTrue(other.keys.verifications.isVerified(user: ann.account.userID, masterKey: master))
        XCTAssertFalse(first.keys.verifications.isVerified(user: ann.account.userID, masterKey: master),
                       "the second device holds no keys, so it MAC'd no master key")

        // The server shows the second device signed by our self-signing key.
        XCTAssertEqual(ours.trustNote, "device \(second.deviceID) marked verified here; signed with your self-signing key")
        let query = try first.client.queryKeys(users: [ann.account.userID])
        let identity = try XCTUnwrap(try CrossSigningIdentity.fromKeysQuery(query, userID: ann.account.userID))
        let published = try XCTUnwrap(query["device_keys"]?[ann.account.userID]?[second.deviceID])
        XCTAssertTrue(identity.hasCrossSigned(deviceKeys: published))
    }

    func testWhenOneOfOurDevicesAnswersTheOthersAreToldAndADeclineEndsItForAll() throws {
        let ann = try registerUser("ann", on: try server)
        let first = try verifyingDevice(userID: ann.account.userID, deviceID: ann.account.deviceID, token: ann.account.accessToken)
        let logins = try [secondLogin(ann.account), secondLogin(ann.account)]
        let others = try logins.map { try verifyingDevice(userID: ann.account.userID, deviceID: $0.deviceID, token: $0.token) }
        let all = [first] + others

        // The second device answers: the third is told another device did (m.accepted).
        try first.keys.verifications.request(userID: ann.account.userID, deviceID: nil)
        try drive(all, act: {
            if let incoming = others[0].verifications.first, incoming.stage == .incoming { others[0].keys.verifications.accept(incoming.id) }
        }, until: { others[1].verifications.first?.stage == .cancelled })
        XCTAssertEqual(others[1].verifications.first?.cancelCode, .accepted)
        XCTAssertEqual(first.verifications.first?.deviceID, logins[0].deviceID)

        // A new request the third device declines: the second is told too (m.user), and ours ends.
        let id = try first.keys.verifications.request(userID: ann.account.userID, deviceID: nil)
        try drive(all, act: {
            if let incoming = others[1].verifications.last, incoming.id == id, incoming.stage == .incoming {
                others[1].keys.verifications.cancel(incoming.id)
            }
        }, until: { others[0].verifications.last.map { $0.id == id && $0.stage == .cancelled } ?? false })
        XCTAssertEqual(others[0].verifications.last?.cancelCode, .user)
        XCTAssertEqual(first.keys.verifications.verification(id)?.cancelCode, .user)
        XCTAssertEqual(first.keys.verifications.verification(id)?.stage, .cancelled)
    }
}
