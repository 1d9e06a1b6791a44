import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// A forwarded key for a session this device holds from its sender, but from a later index:
/// the earlier part is taken, and the key keeps its standing (still the sender's, not
/// "forwarded") and the signing key its sender claimed.
final class MatrixForwardedKeyMergeTests: SharedSynapseTestCase {
    func testAForwardedEarlierCopyOfASendersKeyDoesNotDowngradeIt() throws {
        let account = try backedUpAccount()
        _ = try account.firstDeviceSends(2)
        let second = try account.secondDevice("second")
        _ = try second.keys.lock.withLock { try second.keys.device.verify(with: .recoveryKey(account.recoveryKey), client: second.client) }
        let outbound = try XCTUnwrap(account.first.device.store.value(account.room, in: MatrixRoomKeys.outboundSessions)).session
        let id = CryptoStoreCollection<MatrixRoomKeys.StoredRoomKey>.id(account.room, outbound.sessionID)
        let senderKey = account.first.device.identityKey
        let signingKey = account.first.device.fingerprint
        try second.keys.device.store.put(MatrixRoomKeys.StoredRoomKey(session: MegolmInboundSession(sessionKey: outbound.sessionKey()),
                                                                      senderKey: senderKey, claimedSigningKey: signingKey),
                                         id: id, in: MatrixRoomKeys.megolmSessions)

        // The first device (ours, cross-signed) forwards the session from index 0, as asked.
        let me = account.ann.account.userID
        let kept = try XCTUnwrap(account.first.device.store.value(id, in: MatrixRoomKeys.megolmSessions))
        let content: JSONValue = ["algorithm": "m.megolm.v1.aes-sha2", "room_id": .string(account.room), "session_id": .string(outbound.sessionID),
                                  "sender_key": .string(senderKey), "session_key": .string(try kept.session.export(at: 0).base64),
                                  "sender_claimed_ed25519_key": "bm90IHRoZSBzZW5kZXIncw", "forwarding_curve25519_key_chain": []]
        let plaintext = try OlmPayload.plaintext(type: "m.forwarded_room_key", content: content, sender: me, senderDevice: account.ann.account.deviceID,
                                                 senderEd25519: signingKey, recipient: me, recipientEd25519: second.keys.device.fingerprint)
        let payload = try OlmPayload(plaintext: plaintext, sender: me, ourUserID: me, ourEd25519: second.keys.device.fingerprint,
                                     knownSenderEd25519: nil)
        try second.keys.lock.withLock {
            second.keys.requested[MatrixRoomKeys.WantedKey(roomID: account.room, sessionID: outbound.sessionID, senderKey: senderKey)] = (1, Date())
            try second.keys.takeForwardedKey(payload, sender: me, forwarderKey: senderKey)
        }
        let taken = try XCTUnwrap(second.keys.device.store.value(id, in: MatrixRoomKeys.megolmSessions))
        XCTAssertEqual(taken.session.firstKnownIndex, 0, "the earlier part taken")
        XCTAssertTrue(taken.session.isSigned)
        XCTAssertNil(taken.origin, "still the sender's key, not a forwarded one")
        XCTAssertEqual(taken.claimedSigningKey, signingKey)
    }
}
