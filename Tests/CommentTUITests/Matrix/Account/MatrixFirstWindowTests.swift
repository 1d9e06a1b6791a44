import Foundation
import ThreadModel
import XCTest
@testable import CommentTUI

/// A first window's answer read as home reads it, hostile values included: only rooms the
/// account is in or invited to, heroes bounded, a count no larger than the rooms kept.
final class MatrixFirstWindowTests: XCTestCase {
    private let me = "@ann:a.org"

    private func rows(_ window: JSONValue) -> [ThreadSummary] {
        var rooms = MatrixAccountRooms(account: me)
        rooms.apply(sync: MatrixFirstWindow.read(window, me: me).answer, at: Date(timeIntervalSince1970: 1_000))
        return rooms.summaries
    }

    private func room(_ name: String, membership: String) -> JSONValue {
        ["required_state": [SyncAnswer.state("m.room.name", .object(["name": .string(name)])),
                            SyncAnswer.member(me, "Ann", membership: membership)]]
    }

    func testOnlyRoomsTheAccountIsInOrInvitedToAreListed() {
        let listed = rows(["rooms": [
            "!in:a.org": room("In", membership: "join"),
            "!kicked:a.org": room("Kicked", membership: "leave"),
            "!banned:a.org": room("Banned", membership: "ban"),
            // No member event of the account, and an invite state of the wrong type: not listed.
            "!odd:a.org": ["invite_state": ["events": []], "required_state": [SyncAnswer.state("m.room.name", ["name": "Odd"])]],
            "!invite:a.org": ["invite_state": [SyncAnswer.state("m.room.name", ["name": "Plans"]),
                                               SyncAnswer.member(me, nil, membership: "invite", sender: "@bo:a.org")]],
            "not-a-room": room("Bad id", membership: "join"),
        ]])
        XCTAssertEqual(listed.map(\.name).sorted(), ["In", "Plans"])
        XCTAssertNotNil(listed.first { $0.name == "Plans" }?.invite)
    }

    func testHeroesAreBoundedAndNamedAndTheRoomsOwnMemberEventsWin() {
        var heroes: [JSONValue] = [["user_id": "@cy:a.org", "displayname": "Cy from the hero list"]]
        heroes += (0..<100_000).map { n in ["user_id": .string("@h\(n):a.org"), "displayname": .string("Hero \(n)")] }
        let window: JSONValue = ["required_state": [SyncAnswer.member(me, "Ann"), SyncAnswer.member("@cy:a.org", "Cy")],
                  "heroes": .array(heroes), "joined_count": 3]
        let start = Date()
        let read = MatrixFirstWindow.read(["rooms": ["!dm:a.org": window]], me: me)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "a hundred thousand heroes cost no time")
        let events = read.answer["rooms"]?["join"]?["!dm:a.org"]?["state"]?["events"]?.array ?? []
        XCTAssertEqual(read.answer["rooms"]?["join"]?["!dm:a.org"]?["summary"]?["m.heroes"]?.array?.count, 10)
        XCTAssertLessThanOrEqual(events.count, 12)
        let listed = rows(["rooms": ["!dm:a.org": window]])
        XCTAssertEqual(listed.first?.name, "Cy, Hero 0, Hero 1, Hero 2 and Hero 3", "named by its heroes, Cy as the room's own event says")
    }

    func testTheCountOfRoomsIsNoLargerThanTheRoomsKeptAndNeverNegative() {
        XCTAssertEqual(MatrixFirstWindow.read(["lists": ["home": ["count": .number(1e12)]]], me: me).total, MatrixAccountRooms.Limits().rooms)
        XCTAssertNil(MatrixFirstWindow.read(["lists": ["home": ["count": -3]]], me: me).total)
        XCTAssertNil(MatrixFirstWindow.read(["lists": ["home": ["count": "many"]]], me: me).total)
    }
}
