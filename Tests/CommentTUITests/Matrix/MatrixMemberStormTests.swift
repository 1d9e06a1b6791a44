import XCTest
import ThreadModel
@testable import CommentTUI

/// Member storms (issue 36): each member event costs the handles it can change (those sharing
/// its localpart's handle), never the whole room's again. Counted, not timed: the handles tried.
final class MatrixMemberStormTests: XCTestCase {
    private func join(_ id: String, _ name: String?) -> JSONValue {
        var content: [String: JSONValue] = ["membership": "join"]
        if let name { content["displayname"] = .string(name) }
        return ["type": "m.room.member", "state_key": .string(id), "sender": .string(id), "event_id": .string("$join-\(id)"),
                "content": .object(content)]
    }

    /// A room of `size` members, then 50 member events (25 joins, 25 renames) in one sync:
    /// the handles tried for those events.
    private func workOfFiftyEvents(inRoomOf size: Int) -> (tried: Int, changed: [User]) {
        var members = MatrixMembers(me: "@reader:home.org")
        var everyone: [String: String?] = [:]
        for n in 0..<size { everyone["@member\(n):home.org"] = "Member \(n)" }
        members.update(everyone)
        var timeline = MatrixTimeline(members: members)
        let before = timeline.members.handlesTried
        let events = (0..<25).map { join("@newcomer\($0):other.org", "Newcomer \($0)") }
            + (0..<25).map { join("@member\($0 * 7):home.org", "Renamed \($0)") }
        let updates = timeline.applyNewer(events)
        let changed = updates.flatMap { update -> [User] in if case .usersChanged(let users) = update { users } else { [] } }
        return (timeline.members.handlesTried - before, changed)
    }

    func testFiftyMemberEventsCostTheSameInARoomTwiceAsBig() {
        let small = workOfFiftyEvents(inRoomOf: 5_000)
        let big = workOfFiftyEvents(inRoomOf: 10_000)
        XCTAssertEqual(small.changed.count, 50, "each event changes its own user")
        XCTAssertEqual(Set(big.changed.map(\.id)).count, 50)
        XCTAssertTrue(big.changed.contains(User(id: "@member7:home.org", handle: "member7", name: "Renamed 1")))
        XCTAssertTrue(big.changed.contains(User(id: "@newcomer3:other.org", handle: "newcomer3", name: "Newcomer 3")))
        XCTAssertLessThanOrEqual(small.tried, 50 * 2, "no event handles the whole room again")
        XCTAssertEqual(big.tried, small.tried, "the room's size costs nothing per event")
    }

    func testFiveHundredJoinsSharingALongPrefixGetDistinctHandlesAtACostLinearInTheirGroup() {
        // 35 characters: the longest a handle base keeps, so every one of them clips to it.
        let prefix = "a-prefix-thirty-five-characters-lon"
        XCTAssertEqual(prefix.count, 35)
        var timeline = MatrixTimeline(members: MatrixMembers(me: "@reader:home.org"))
        let count = 500
        for n in 0..<count {
            // One sync each, as they come in while the room is open; some from another server.
            let server = n % 5 == 0 ? "other.org" : "home.org"
            _ = timeline.applyNewer([join("@\(prefix)\(n):\(server)", "Joiner \(n)")])
        }
        let users = timeline.members.users.filter { $0.id != "@reader:home.org" }
        XCTAssertEqual(users.count, count)
        XCTAssertEqual(Set(users.map { $0.handle.lowercased() }).count, count, "every handle is distinct")
        for user in users {
            XCTAssertTrue(Handle.isValid(user.handle), user.handle)
            XCTAssertTrue(user.handle.hasPrefix(prefix), user.handle)
            XCTAssertEqual(timeline.members.userID(handle: user.handle.uppercased()), user.id, "the handle finds its user again")
        }
        // Each join recomputes its group of k at most: 500·501/2 handles, not k² per join.
        XCTAssertLessThanOrEqual(timeline.members.handlesTried, count * (count + 1) / 2 + 2 * count)
    }

    func testFiveHundredJoinsSharingAPrefixInOneSyncAssignTheirGroupOnce() {
        let prefix = "a-prefix-thirty-five-characters-lon"
        var timeline = MatrixTimeline(members: MatrixMembers(me: "@reader:home.org"))
        let message: JSONValue = ["type": "m.room.message", "event_id": "$hello", "sender": .string("@\(prefix)7:home.org"),
                                  "origin_server_ts": 1, "content": ["msgtype": "m.text", "body": "hello"]]
        let updates = timeline.applyNewer((0..<500).map { join("@\(prefix)\($0):home.org", "Joiner \($0)") } + [message])
        // The joins are known before the message after them is read: its author has a name.
        guard case .commentsAppended(let comments)? = updates.last else { return XCTFail("\(updates)") }
        XCTAssertEqual(comments.map(\.id), ["$hello"])
        let changed = updates.flatMap { update -> [User] in if case .usersChanged(let users) = update { users } else { [] } }
        XCTAssertEqual(changed.count, 500)
        XCTAssertEqual(Set(changed.map { $0.handle.lowercased() }).count, 500)
        XCTAssertEqual(timeline.members.name(of: "@\(prefix)7:home.org"), "Joiner 7")
        XCTAssertLessThanOrEqual(timeline.members.handlesTried, 2 * 500, "one sync's run of joins assigns its group once")
    }
}
