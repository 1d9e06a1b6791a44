import XCTest
import ThreadModel
@testable import CommentTUI

/// Handles stay with the users who hold them as others join (issue 36 review): an @mention the
/// reader types keeps naming the same person, and no joiner can take a handle already held.
final class MatrixHandleStabilityTests: XCTestCase {
    func testAJoinerWhoseLocalpartIsAHeldHandleDoesNotTakeIt() {
        var members = MatrixMembers(me: "@reader:home.org")
        members.update(["@kim:a.org": nil, "@kim:b.org": nil])
        XCTAssertEqual(members.user(id: "@kim:a.org").handle, "kim.a.org")
        members.update(["@kim.a.org:c.org": nil])
        XCTAssertEqual(members.user(id: "@kim:a.org").handle, "kim.a.org", "the holder keeps it")
        XCTAssertEqual(members.userID(handle: "kim.a.org"), "@kim:a.org")
        XCTAssertNotEqual(members.user(id: "@kim.a.org:c.org").handle.lowercased(), "kim.a.org")
        XCTAssertEqual(Set(members.users.map { $0.handle.lowercased() }).count, 3)
        // Its group changing again (another kim) does not take it from its holder either.
        members.update(["@kim:d.org": nil])
        XCTAssertEqual(members.user(id: "@kim:a.org").handle, "kim.a.org")
        XCTAssertEqual(members.userID(handle: "kim.a.org"), "@kim:a.org")
        XCTAssertEqual(Set(members.users.map { $0.handle.lowercased() }).count, 4)
    }

    func testALocalpartDifferingOnlyInCaseNeverTakesTheHomeServersHandle() {
        // In either order of joining, `@marco` is the reader's own server's marco.
        for order in [["@Marco:evil.org", "@marco:home.org"], ["@marco:home.org", "@Marco:evil.org"]] {
            var members = MatrixMembers(me: "@reader:home.org")
            for id in order { members.update([id: nil]) }
            XCTAssertEqual(members.userID(handle: "marco"), "@marco:home.org", "joined in the order \(order)")
            XCTAssertEqual(members.user(id: "@marco:home.org").handle, "marco")
            XCTAssertEqual(Set(members.users.map { $0.handle.lowercased() }).count, 2, "no two handles equal ignoring case")
        }
    }

    func testUsersNumberedForASharedPrefixKeepTheirNumbersWhenAnEarlierIdJoins() {
        let prefix = "a-prefix-thirty-five-characters-lon"
        var members = MatrixMembers(me: "@reader:home.org")
        members.update(["@\(prefix)5:home.org": nil, "@\(prefix)7:home.org": nil])
        let before = members.users
        let changed = members.update(["@\(prefix)1:home.org": nil])
        for user in before {
            XCTAssertEqual(members.user(id: user.id).handle, user.handle, "\(user.id) keeps its handle")
            XCTAssertEqual(members.userID(handle: user.handle), user.id)
        }
        XCTAssertEqual(changed.map(\.id), ["@\(prefix)1:home.org"], "only the joiner changed")
        XCTAssertEqual(Set(members.users.map { $0.handle.lowercased() }).count, 3)
    }

    func testAUserWhoLeavesAndRejoinsKeepsTheirHandle() {
        var timeline = MatrixTimeline(members: MatrixMembers(me: "@reader:home.org"))
        func member(_ id: String, _ membership: String, _ n: Int) -> JSONValue {
            ["type": "m.room.member", "state_key": .string(id), "sender": .string(id), "event_id": .string("$m\(n)"),
             "content": ["membership": .string(membership)]]
        }
        _ = timeline.applyNewer([member("@kim:a.org", "join", 1), member("@kim:b.org", "join", 2)])
        let held = timeline.members.user(id: "@kim:b.org").handle
        _ = timeline.applyNewer([member("@kim:b.org", "leave", 3), member("@kim:c.org", "join", 4)])
        _ = timeline.applyNewer([member("@kim:b.org", "join", 5)])
        XCTAssertEqual(timeline.members.user(id: "@kim:b.org").handle, held)
        XCTAssertEqual(timeline.members.userID(handle: held), "@kim:b.org")
    }

    func testAReopenFromTheOfflineCopyKeepsTheHandlesAsTheyWere() {
        // Numbered in the order they came, not in id order: a reopen must not number them again.
        let prefix = "a-prefix-thirty-five-characters-lon"
        var members = MatrixMembers(me: "@reader:home.org")
        for n in [5, 7, 1] { members.update(["@\(prefix)\(n):home.org": "Joiner \(n)"]) }
        members.update(["@kim:a.org": nil, "@kim:b.org": nil])
        members.update(["@kim.a.org:c.org": nil])
        let header = ThreadHeader(id: "!room:home.org", title: "Room", author: "@reader:home.org", created: Date(timeIntervalSince1970: 0), body: "")
        let snapshot = MatrixRoomCache.Snapshot(roomID: "!room:home.org", label: "Room", header: header, postEventID: nil,
                                                users: members.users, comments: [], olderToken: nil, nextBatch: "s1", fullyRead: nil)
        let reopened = MatrixRoomOpening(snapshot: snapshot, me: "@reader:home.org", pageSize: 50)
        for user in members.users {
            XCTAssertEqual(reopened.timeline.members.user(id: user.id).handle, user.handle, "\(user.id) after a reopen")
            XCTAssertEqual(reopened.timeline.members.userID(handle: user.handle), user.id)
        }
    }
}
