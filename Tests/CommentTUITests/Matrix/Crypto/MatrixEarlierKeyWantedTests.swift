import Foundation
import MatrixCrypto
import ThreadModel
import XCTest
@testable import CommentTUI

/// A message from before the first index of a session we hold stays wanted from the backup
/// until the backup was asked: a sync's key requests in between (which drop keys held) leave it.
final class MatrixEarlierKeyWantedTests: XCTestCase {
    func testAMessageBeforeTheHeldIndexStaysWantedThroughASync() throws {
        let me = "@ann:test.local", room = "!room:test.local"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("earlier-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let location = CryptoStoreLocation(parent: folder.appendingPathComponent("data").path, keyFolder: folder.appendingPathComponent("config").path,
                                           userID: me, deviceID: "ANN")
        let keys = try MatrixRoomKeys(client: MatrixClient(homeserver: URL(string: "http://127.0.0.1:9")!, accessToken: "t"),
                                      userID: me, deviceID: "ANN", location: location)
        var random = SystemRandom()
        var outbound = try MegolmOutboundSession(random: &random, createdAtMilliseconds: 0)
        let first = try outbound.encrypt(Array(#"{"type":"m.room.message","content":{},"room_id":"!room:test.local"}"#.utf8))
        let held = MegolmInboundSession(sessionKey: try outbound.sessionKey())
        try keys.device.store.put(MatrixRoomKeys.StoredRoomKey(session: held, senderKey: "c2VuZGVy"),
                                  id: CryptoStoreCollection<MatrixRoomKeys.StoredRoomKey>.id(room, outbound.sessionID), in: MatrixRoomKeys.megolmSessions)
        let event: JSONValue = ["type": "m.room.encrypted", "event_id": "$first", "sender": .string(me),
                                "content": ["algorithm": "m.megolm.v1.aes-sha2", "session_id": .string(outbound.sessionID), "sender_key": "c2VuZGVy",
                                            "ciphertext": .string(UnpaddedBase64.encode(first.bytes))]]
        guard case .undecryptable(_, let waits) = keys.read(event, roomID: room) else { return XCTFail("it decrypted") }
        XCTAssertTrue(waits)
        var problems: [String] = []
        keys.requestWantedKeys(problems: &problems)
        XCTAssertEqual(keys.lock.withLock { keys.wantedEarlier.map(\.sessionID) }, [outbound.sessionID], "still wanted from the backup")
    }
}
