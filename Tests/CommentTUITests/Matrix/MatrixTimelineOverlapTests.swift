import XCTest
import ThreadModel
@testable import CommentTUI

/// A room's opening, its account's sync and a catch-up of its own overlap: events given again
/// change nothing.
final class MatrixTimelineOverlapTests: XCTestCase {
    private func event(_ id: String, _ type: String = "m.room.message", stateKey: String? = nil, content: JSONValue) -> JSONValue {
        var event: [String: JSONValue] = ["type": .string(type), "event_id": .string(id), "sender": "@bo:h.org",
                                          "origin_server_ts": 1000, "content": content]
        if let stateKey { event["state_key"] = .string(stateKey) }
        return .object(event)
    }

    func testEventsAppliedAgainChangeNothing() {
        var members = MatrixMembers(me: "@ann:h.org")
        members.update(["@ann:h.org": "Ann", "@bo:h.org": "Bo"])
        var line = MatrixTimeline(members: members)
        let batch = [
            event("$a", content: ["msgtype": "m.text", "body": "first"]),
            event("$b", content: ["msgtype": "m.text", "body": "second"]),
            event("$e", content: ["msgtype": "m.text", "body": "* first!", "m.new_content": ["msgtype": "m.text", "body": "first!"],
                                  "m.relates_to": ["rel_type": "m.replace", "event_id": "$a"]]),
            event("$r", "m.room.redaction", content: ["redacts": "$b"]).withRedacts("$b"),
            event("$m", "m.room.member", stateKey: "@cy:h.org", content: ["membership": "join", "displayname": "Cy"]),
        ]
        XCTAssertFalse(line.applyNewer(batch).isEmpty)
        XCTAssertTrue(line.hasApplied(eventID: "$e") && line.hasApplied(eventID: "$m"))
        XCTAssertEqual(line.applyNewer(batch).map { "\($0)" }, [], "the same events again")
        XCTAssertEqual(line.applyNewer(Array(batch.suffix(3)) + [event("$c", content: ["msgtype": "m.text", "body": "third"])]).count, 1,
                       "only what is new")
    }
}

private extension JSONValue {
    /// A redaction's target at the top level too (room versions before 11).
    func withRedacts(_ target: String) -> JSONValue {
        guard case .object(var event) = self else { return self }
        event["redacts"] = .string(target)
        return .object(event)
    }
}
