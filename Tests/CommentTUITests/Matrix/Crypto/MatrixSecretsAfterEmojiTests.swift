import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// The whole way, against Synapse: a new device of ours verifies with emoji against our device
/// that entered the recovery key; that one signs it, and the new device, seeing the signature,
/// asks for the secrets and gets the cross-signing keys over Olm: the recovery key was never
/// typed on it.
final class MatrixSecretsAfterEmojiTests: SharedSynapseTestCase {
    func testANewDeviceVerifiedWithEmojiGetsTheCrossSigningKeysFromTheOther() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server)
        let me = ann.account.userID
        let recoveryKey = try MautrixPeer(homeserver: server.baseURL, userID: me, password: ann.account.password).setUpRecovery().recoveryKey
        let second = try secondLogin(ann.account)
        let first = try verifyingDevice(userID: me, deviceID: ann.account.deviceID, token: ann.account.accessToken)
        _ = try first.keys.lock.withLock { try first.keys.device.verify(with: .recoveryKey(recoveryKey), client: first.client) }
        let other = try verifyingDevice(userID: me, deviceID: second.deviceID, token: second.token)
        XCTAssertEqual(other.keys.device.missingSecrets, SharedSecret.Name.allCases)

        try first.keys.verifications.request(userID: me, deviceID: second.deviceID)
        try drive([first, other], seconds: 40, act: {
            for device in [first, other] {
                for verification in device.verifications {
                    switch verification.stage {
                    case .incoming: device.keys.verifications.accept(verification.id)
                    case .comparing: device.keys.verifications.confirm(verification.id)
                    default: break
                    }
                }
            }
        }, until: { other.keys.device.missingSecrets == [.backup] })

        XCTAssertEqual(other.verifications.first?.stage, .verified)
        XCTAssertTrue(other.keys.device.isCrossSigned, "verified by the other device's signature")
        let held = try XCTUnwrap(other.keys.device.store.value("own", in: MatrixDeviceCrypto.crossSigningKeys))
        let identity = try XCTUnwrap(CrossSigningIdentity.fromKeysQuery(other.client.queryKeys(users: [me]), userID: me))
        XCTAssertNoThrow(try held.checkMatches(identity))
    }
}
