import XCTest
@testable import CommentTUI
import ThreadModel

/// Who may ring the room with `@room`, and when a display name rings, as Matrix's push rules say;
/// cases Synapse does not produce on its own (string levels of old rooms, a room without power
/// levels, one-letter names).
final class MatrixReaderMentionTests: XCTestCase {
    private let create: JSONValue = ["type": "m.room.create", "sender": "@cy:a.org", "content": ["room_version": "10"]]

    private func roomCall(from sender: String, _ power: MatrixReaderMention.Power?) -> Bool {
        let rule = MatrixReaderMention(me: "@ann:a.org", power: power)
        let event: JSONValue = ["type": "m.room.message", "sender": .string(sender), "event_id": "$1",
                                "content": ["msgtype": "m.text", "body": "@room look", "m.mentions": ["room": true]]]
        return rule.callsForReader(event, name: "Ann") { power }
    }

    func testPowerLevelsGivenAsStringsCount() {
        let levels: JSONValue = ["users": ["@bo:a.org": "100", "@di:a.org": "10"], "users_default": "0", "notifications": ["room": "20"]]
        let power = MatrixReaderMention.Power(levels: levels, create: create)
        XCTAssertTrue(roomCall(from: "@bo:a.org", power))
        XCTAssertFalse(roomCall(from: "@di:a.org", power), "10 is under the room's 20")
        XCTAssertFalse(roomCall(from: "@eve:a.org", power))
    }

    func testWithoutPowerLevelsTheCreatorHas100() {
        let power = MatrixReaderMention.Power(levels: nil, create: create)
        XCTAssertTrue(roomCall(from: "@cy:a.org", power))
        XCTAssertFalse(roomCall(from: "@bo:a.org", power))
    }

    func testADisplayNameRingsOnlyWhenItIsTwoLettersOrMore() {
        func rings(_ name: String) -> Bool {
            let event: JSONValue = ["type": "m.room.message", "sender": "@bo:a.org", "event_id": "$1",
                                    "content": ["msgtype": "m.text", "body": "a b Al c"]]
            return MatrixReaderMention(me: "@ann:a.org").callsForReader(event, name: name) { nil }
        }
        XCTAssertTrue(rings(" Al "), "trimmed")
        XCTAssertFalse(rings("a"))
        XCTAssertFalse(rings(" "))
    }

    func testAnEditIsNoCall() {
        let edit: JSONValue = ["type": "m.room.message", "sender": "@bo:a.org", "event_id": "$2",
                               "content": ["msgtype": "m.text", "body": "* hey @ann:a.org",
                                           "m.mentions": ["user_ids": ["@ann:a.org"]],
                                           "m.relates_to": ["rel_type": "m.replace", "event_id": "$1"]]]
        XCTAssertFalse(MatrixReaderMention(me: "@ann:a.org").callsForReader(edit, name: "Ann") { nil })
    }
}
