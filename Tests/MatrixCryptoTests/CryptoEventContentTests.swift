import Foundation
import ThreadModel
import XCTest
@testable import MatrixCrypto

/// The contents encryption passes around, read and checked before use: room keys, withheld
/// notices, and the checks on an Olm message's plaintext.
final class CryptoEventContentTests: XCTestCase {
    private let sessionKey = UnpaddedBase64.encode([UInt8](repeating: 2, count: 229))
    private let curveKey = UnpaddedBase64.encode([UInt8](repeating: 3, count: 32))

    func testRoomKeysAreTakenOnlyForMegolmWithWhatTheyNeed() throws {
        let content: JSONValue = .object(["algorithm": "m.megolm.v1.aes-sha2", "room_id": "!r:hs", "session_id": "c2Vzc2lvbg",
                                          "session_key": .string(sessionKey)])
        let key = try RoomKeyContent(type: "m.room_key", content: content)
        XCTAssertEqual(key.roomID, "!r:hs")
        XCTAssertFalse(key.forwarded)
        XCTAssertThrowsError(try RoomKeyContent(type: "m.forwarded_room_key", content: content), "forwarded without the sender's key")
        var forwarded = content.object!
        forwarded["sender_key"] = .string(curveKey)
        XCTAssertEqual(try RoomKeyContent(type: "m.forwarded_room_key", content: .object(forwarded)).senderKey, curveKey)
        for (field, value) in [("algorithm", JSONValue.string("m.olm.v1.curve25519-aes-sha2")), ("room_id", .null),
                               ("session_key", "not base64!"), ("session_id", .number(3))] {
            var broken = content.object!
            broken[field] = value
            XCTAssertThrowsError(try RoomKeyContent(type: "m.room_key", content: .object(broken)), field)
        }
        XCTAssertThrowsError(try RoomKeyContent(type: "m.dummy", content: content))
    }

    func testWithheldNoticesSayWhyInWords() {
        let notice = WithheldNotice(content: ["algorithm": "m.megolm.v1.aes-sha2", "room_id": "!r:hs", "session_id": "s",
                                              "sender_key": .string(curveKey), "code": "m.unverified"])
        XCTAssertEqual(notice?.code, .unverified)
        XCTAssertTrue(notice?.code.words.contains("recovery key") ?? false)
        XCTAssertEqual(WithheldCode(code: "m.no_olm"), .noOlm)
        XCTAssertEqual(WithheldCode(code: "x.new"), .other("x.new"))
        XCTAssertNil(WithheldNotice(content: ["algorithm": "m.megolm.v1.aes-sha2", "code": "m.unverified"]), "no sender key")
    }

    func testOlmPlaintextMustNameSenderUsAndTheSendingDevice() throws {
        func plaintext(_ changes: [String: JSONValue] = [:]) throws -> [UInt8] {
            var object: [String: JSONValue] = ["type": "m.room_key", "content": ["k": 1], "sender": "@bo:hs", "sender_device": "BODEV",
                                               "recipient": "@ann:hs", "recipient_keys": ["ed25519": "ANNKEY"], "keys": ["ed25519": "BOKEY"]]
            for (key, value) in changes { object[key] = value }
            return try CanonicalJSON.encode(.object(object))
        }
        let payload = try OlmPayload(plaintext: plaintext(), sender: "@bo:hs", ourUserID: "@ann:hs", ourEd25519: "ANNKEY", knownSenderEd25519: "BOKEY")
        XCTAssertEqual(payload.type, "m.room_key")
        XCTAssertEqual(payload.senderDeviceID, "BODEV")
        XCTAssertNoThrow(try OlmPayload(plaintext: plaintext(), sender: "@bo:hs", ourUserID: "@ann:hs", ourEd25519: "ANNKEY", knownSenderEd25519: nil),
                         "a device not queried yet: its claim is kept to compare later")
        let refusals: [(String, [UInt8], String)] = [
            ("sender", try plaintext(["sender": "@eve:hs"]), "it names another sender"),
            ("recipient", try plaintext(["recipient": "@cy:hs"]), "it was meant for another user"),
            ("recipient key", try plaintext(["recipient_keys": ["ed25519": "OTHER"]]), "it was meant for another device"),
            ("sender key", try plaintext(["keys": ["ed25519": "EVEKEY"]]), "its sender key is not the sending device's"),
            ("no content", try plaintext(["content": "x"]), "no type or content"),
            ("not JSON", Array("{".utf8), "not a JSON object"),
        ]
        for (name, bytes, reason) in refusals {
            XCTAssertThrowsError(try OlmPayload(plaintext: bytes, sender: "@bo:hs", ourUserID: "@ann:hs", ourEd25519: "ANNKEY",
                                                knownSenderEd25519: "BOKEY"), name) { error in
                XCTAssertEqual((error as? OlmPayload.Refusal)?.reason, reason, name)
            }
        }
    }
}
