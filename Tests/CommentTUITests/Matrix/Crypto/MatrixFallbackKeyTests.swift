import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// Our one-time keys run out on Synapse and the fallback key serves: a nio device starts its
/// session with us on it, we decrypt, and the next sync puts new one-time keys and a new
/// fallback key up while the old fallback key still opens what was made with it.
final class MatrixFallbackKeyTests: SharedSynapseTestCase {
    /// Claims one key of Ann's device as Bo; the key object and its key id.
    private func claimAnnsKey(_ room: EncryptedRoom) throws -> (id: String, key: [String: Any]) {
        let answer = try room.bo.other.call("POST", "/_matrix/client/v3/keys/claim", body: [
            "one_time_keys": [room.ann.account.userID: [room.ann.account.deviceID: "signed_curve25519"]],
        ])
        let keys = (answer["one_time_keys"] as? [String: Any])?[room.ann.account.userID] as? [String: Any]
        let device = try XCTUnwrap(keys?[room.ann.account.deviceID] as? [String: Any], "\(answer)")
        let (id, key) = try XCTUnwrap(device.first)
        return (id, try XCTUnwrap(key as? [String: Any]))
    }

    func testOurOneTimeKeysRunOutAndTheFallbackKeyServes() throws {
        let room = try encryptedRoom()
        let keys = try keys(of: room)
        let fallback = try XCTUnwrap(keys.device.account.currentFallbackKey, "a fallback key went up with the device keys")

        // Someone takes every one-time key; then the server hands out the fallback key.
        var oneTimeKeys = 0
        var claimed = try claimAnnsKey(room)
        while claimed.key["fallback"] as? Bool != true, oneTimeKeys < 200 {
            oneTimeKeys += 1
            claimed = try claimAnnsKey(room)
        }
        XCTAssertEqual(oneTimeKeys, KeyReplenishment.target, "the one-time keys we put up")
        XCTAssertEqual(claimed.key["key"] as? String, fallback.base64, "then our fallback key")
        XCTAssertEqual(claimed.id, "signed_curve25519:" + fallback.keyID)

        // Nio's new session with us is made on the fallback key (it is all the server has).
        let ids = try nioSends(["over the fallback key"], in: room)
        let (source, sync) = try open(room, keys: keys)
        defer { source.stop(); sync.stop() }
        XCTAssertEqual(opened(source).map(\.id), ids)
        XCTAssertEqual(opened(source).map(\.body), ["over the fallback key"],
                       "decrypted with the old fallback key, in the sync that also replaced it")

        // That sync topped the keys up: new one-time keys, and a new fallback key as the old was used.
        let current = try XCTUnwrap(keys.lock.withLock { keys.device.account.currentFallbackKey })
        XCTAssertNotEqual(current.publicKey, fallback.publicKey, "a new fallback key")
        XCTAssertNil(keys.lock.withLock { keys.device.account.unpublishedFallbackKey }, "and it is on the server")
        let state = try room.ann.other.sync()
        XCTAssertEqual(state["device_unused_fallback_key_types"] as? [String], ["signed_curve25519"])
        XCTAssertEqual((state["device_one_time_keys_count"] as? [String: Any])?["signed_curve25519"] as? Int, KeyReplenishment.target)
        let next = try claimAnnsKey(room)
        XCTAssertNotEqual(next.key["fallback"] as? Bool, true, "one-time keys are handed out again")

        // A session someone made on the old key before it was replaced still opens.
        var random = SystemRandom()
        let late = try OlmAccount(random: &random)
        var session = try OlmSession.outbound(account: late, theirIdentityKey: XCTUnwrap(UnpaddedBase64.decode(keys.device.identityKey)),
                                              theirOneTimeKey: fallback.publicKey, random: &random)
        let plaintext = try OlmPayload.plaintext(type: "m.dummy", content: [:], sender: room.bo.account.userID, senderDevice: "LATECOMER",
                                                 senderEd25519: UnpaddedBase64.encode(late.ed25519Key), recipient: room.ann.account.userID,
                                                 recipientEd25519: keys.device.fingerprint)
        let message = try session.encrypt(plaintext, random: &random)
        let lateCurve = UnpaddedBase64.encode(late.curve25519Key)
        let event: JSONValue = [
            "type": "m.room.encrypted", "sender": .string(room.bo.account.userID),
            "content": ["algorithm": "m.olm.v1.curve25519-aes-sha2", "sender_key": .string(lateCurve),
                        "ciphertext": .object([keys.device.identityKey: ["type": 0, "body": .string(message.body)]])],
        ]
        XCTAssertEqual(keys.take(["to_device": ["events": [event]]]), [])
        XCTAssertEqual(keys.lock.withLock { try? keys.device.store.value(lateCurve, in: MatrixRoomKeys.olmSessions)?.count }, 1)

        // Nio goes on over the session the old fallback key made.
        try nioSends(["and after"], in: room)
        try collectUpdates(from: source, timeout: 30) { updates in
            updates.contains { if case .commentsAppended(let list) = $0 { list.contains { $0.body == "and after" } } else { false } }
        }
    }
}
