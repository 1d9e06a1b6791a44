import Foundation
import MatrixCrypto
import ThreadModel
import XCTest
@testable import CommentTUI

/// A forwarded room key (`m.forwarded_room_key`) is taken only when this device asked for it and
/// it came from the same user; the checks that need no server, and that nothing is asked before
/// this device is cross-signed.
final class MatrixForwardedKeyTests: XCTestCase {
    private let me = "@ann:test.local"

    private func keys() throws -> MatrixRoomKeys {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("forwarded-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let location = CryptoStoreLocation(parent: folder.appendingPathComponent("data").path, keyFolder: folder.appendingPathComponent("config").path,
                                           userID: me, deviceID: "ANN")
        return try MatrixRoomKeys(client: MatrixClient(homeserver: URL(string: "http://127.0.0.1:9")!, accessToken: "t"),
                                  userID: me, deviceID: "ANN", location: location)
    }

    /// A forwarded key for `session` of `room`, as `sender`'s device would send it to us.
    private func payload(session: MegolmOutboundSession, room: String, sender: String, keys: MatrixRoomKeys) throws -> OlmPayload {
        let exported = try MegolmInboundSession(sessionKey: session.sessionKey()).export(at: 0)
        let content: JSONValue = ["algorithm": "m.megolm.v1.aes-sha2", "room_id": .string(room), "session_id": .string(session.sessionID),
                                  "sender_key": "c2VuZGVy", "session_key": .string(exported.base64)]
        let plaintext = try OlmPayload.plaintext(type: "m.forwarded_room_key", content: content, sender: sender, senderDevice: "OTHER",
                                                 senderEd25519: "ZWQ", recipient: me, recipientEd25519: keys.device.fingerprint)
        return try OlmPayload(plaintext: plaintext, sender: sender, ourUserID: me, ourEd25519: keys.device.fingerprint, knownSenderEd25519: nil)
    }

    func testAForwardedKeyNotAskedForOrFromAnotherUserIsRefused() throws {
        let keys = try keys()
        var random = SystemRandom()
        let session = try MegolmOutboundSession(random: &random, createdAtMilliseconds: 0)
        let room = "!room:test.local"
        func take(from sender: String) throws {
            try keys.lock.withLock {
                try keys.takeForwardedKey(payload(session: session, room: room, sender: sender, keys: keys), sender: sender, forwarderKey: "Zm9yd2FyZGVy")
            }
        }
        XCTAssertThrowsError(try take(from: "@mallory:test.local")) { XCTAssertTrue("\($0)".contains("another user"), "\($0)") }
        XCTAssertThrowsError(try take(from: me)) { XCTAssertTrue("\($0)".contains("did not ask for it"), "\($0)") }
        let id = CryptoStoreCollection<MatrixRoomKeys.StoredRoomKey>.id(room, session.sessionID)
        XCTAssertNil(try keys.device.store.value(id, in: MatrixRoomKeys.megolmSessions), "nothing kept")
    }

    func testNothingIsAskedBeforeThisDeviceIsCrossSigned() throws {
        let keys = try keys()
        var problems: [String] = []
        keys.lock.withLock { keys.want(roomID: "!room:test.local", sessionID: "s", senderKey: "k") }
        // The server is a closed port: an attempt to ask would be a problem in words.
        keys.requestWantedKeys(problems: &problems)
        XCTAssertEqual(problems, [], "not asked: our other devices would not answer an unverified one")
        XCTAssertTrue(keys.lock.withLock { keys.requested.isEmpty })
    }
}
