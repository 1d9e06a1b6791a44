import Foundation
import MatrixCrypto
import ThreadModel
import XCTest
@testable import CommentTUI

/// What a server or another device sends the room keys is hostile: a seeded fuzz of spoiled
/// encrypted room events and to-device messages. Each is decrypted or refused with words, never
/// a crash, and only the untouched message decrypts.
final class MatrixRoomKeysFuzzTests: XCTestCase {
    /// Random bytes from a seed, for the keys the test makes.
    private struct Bytes: RandomSource {
        var random: SeededRandom
        mutating func bytes(_ count: Int) throws -> [UInt8] { (0 ..< count).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
    }

    private let room = "!fuzz:test.local"
    private let senderKey = UnpaddedBase64.encode([UInt8](repeating: 7, count: 32))

    /// Keys in a fresh store (no server: a closed port answers nothing), holding one room key.
    private func keys(holding session: MegolmOutboundSession) throws -> MatrixRoomKeys {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("room-keys-fuzz-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let location = CryptoStoreLocation(parent: folder.appendingPathComponent("data").path, keyFolder: folder.appendingPathComponent("config").path,
                                           userID: "@ann:test.local", deviceID: "ANN")
        let keys = try MatrixRoomKeys(client: MatrixClient(homeserver: URL(string: "http://127.0.0.1:9")!, accessToken: "t"),
                                      userID: "@ann:test.local", deviceID: "ANN", location: location, random: Bytes(random: SeededRandom(seed: 1)))
        let stored = MatrixRoomKeys.StoredRoomKey(session: MegolmInboundSession(sessionKey: try session.sessionKey()), senderKey: senderKey)
        try keys.device.store.put(stored, id: CryptoStoreCollection<MatrixRoomKeys.StoredRoomKey>.id(room, session.sessionID),
                                  in: MatrixRoomKeys.megolmSessions)
        return keys
    }

    private func event(id: String, ciphertext: String, sessionID: String) -> JSONValue {
        ["type": "m.room.encrypted", "event_id": .string(id), "sender": "@bo:test.local", "origin_server_ts": 1,
         "content": ["algorithm": "m.megolm.v1.aes-sha2", "sender_key": .string(senderKey), "session_id": .string(sessionID),
                     "ciphertext": .string(ciphertext)]]
    }

    func testSpoiledRoomEventsAreRefusedAndTheUntouchedOneDecrypts() throws {
        var bytes = Bytes(random: SeededRandom(seed: 33))
        var outbound = try MegolmOutboundSession(random: &bytes, createdAtMilliseconds: 0)
        let keys = try keys(holding: outbound)
        var random = SeededRandom(seed: 34)
        for round in 0 ..< 300 {
            let plaintext = #"{"type":"m.room.message","room_id":"\#(room)","content":{"msgtype":"m.text","body":"n\#(round)"}}"#
            let message = try outbound.encrypt(Array(plaintext.utf8))
            var spoiled = message.bytes
            let spoils = round % 3 != 0
            if spoils {
                switch random.below(3) {
                case 0: spoiled[random.below(spoiled.count)] ^= UInt8(1 + random.below(255))
                case 1: spoiled = Array(spoiled.prefix(random.below(spoiled.count)))
                default: spoiled += (0 ..< 1 + random.below(40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                }
            }
            let reading = keys.read(event(id: "$e\(round)", ciphertext: UnpaddedBase64.encode(spoiled), sessionID: outbound.sessionID), roomID: room)
            switch reading {
            case .clear(let clear)?:
                XCTAssertFalse(spoils && spoiled != message.bytes, "round \(round): a spoiled message decrypted")
                XCTAssertEqual(clear["content"]?["body"]?.string, "n\(round)")
            case .undecryptable(let reason, _)?:
                XCTAssertTrue(spoils, "round \(round): the untouched message was refused: \(reason)")
                XCTAssertFalse(reason.isEmpty)
            case nil:
                XCTFail("round \(round): an encrypted event not read as one")
            }
        }
        // Fields that are not what they should be: refused, never a crash.
        let odd: [JSONValue] = [
            ["type": "m.room.encrypted", "event_id": "$x", "content": ["algorithm": "m.megolm.v1.aes-sha2"]],
            event(id: "$y", ciphertext: "not base64 !", sessionID: outbound.sessionID),
            event(id: "$z", ciphertext: "", sessionID: ""),
            ["type": "m.room.encrypted", "event_id": "$w", "content": ["algorithm": "m.megolm.v1.aes-sha2", "session_id": 5, "ciphertext": []]],
        ]
        for event in odd {
            guard case .undecryptable? = keys.read(event, roomID: room) else { return XCTFail("\(event) was not refused") }
        }
    }

    func testSpoiledToDeviceMessagesAreRefusedWithWords() throws {
        var bytes = Bytes(random: SeededRandom(seed: 35))
        let keys = try keys(holding: try MegolmOutboundSession(random: &bytes, createdAtMilliseconds: 0))
        var random = SeededRandom(seed: 36)
        for round in 0 ..< 200 {
            let body = UnpaddedBase64.encode((0 ..< random.below(300)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            let ciphertext = JSONValue.object([keys.device.identityKey: ["type": .number(Double(random.below(3))), "body": .string(body)]])
            let event: JSONValue = ["type": "m.room.encrypted", "sender": "@bo:test.local",
                                    "content": ["algorithm": "m.olm.v1.curve25519-aes-sha2", "sender_key": .string(senderKey), "ciphertext": ciphertext]]
            let problems = keys.take(["to_device": ["events": [event]]])
            XCTAssertTrue(problems.contains { $0.contains("was not opened") }, "round \(round): \(problems)")
        }
        XCTAssertTrue(try keys.device.store.ids(in: MatrixRoomKeys.olmSessions).isEmpty, "no session kept from what did not decrypt")
    }
}
