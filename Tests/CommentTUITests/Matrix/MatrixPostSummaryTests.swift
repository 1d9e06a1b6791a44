import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI

/// Posts (Matrix threads) seen from the room's feed, against the real Synapse, with other
/// clients sending as Element does: the roots carry their summaries (bundled, then live), the
/// thread replies are not in the feed, a reply from an older client (only `m.in_reply_to`) is.
final class MatrixPostSummaryTests: SharedSynapseTestCase {
    /// A thread reply's content as Element sends it: in the thread, falling back to a reply to
    /// the thread's newest event for clients without threads.
    private func threadReply(_ body: String, root: String, latest: String, mentioning: String? = nil) -> [String: Any] {
        var content: [String: Any] = [
            "msgtype": "m.text", "body": body,
            "m.relates_to": ["rel_type": "m.thread", "event_id": root, "is_falling_back": true,
                             "m.in_reply_to": ["event_id": latest]],
        ]
        if let mentioning { content["m.mentions"] = ["user_ids": [mentioning]] }
        return content
    }

    /// The summary last reported for a root (nil: none reported; .some(nil): taken away).
    private func latest(_ updates: [ThreadUpdate], of root: String) -> PostSummary?? {
        for update in updates.reversed() {
            if case .postSummaryChanged(root, let summary) = update { return .some(summary) }
        }
        return nil
    }

    func testTheRoomsFeedShowsRootsWithTheirSummariesAndNoFlatThreadReplies() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Posts", on: server)
        let carol = try registerUser("carol", displayName: "Carol", on: server)
        _ = try carol.other.join(room)
        try bo.other.sendText(roomID: room, body: "the room's post")
        let first = try bo.other.sendText(roomID: room, body: "first root")
        let second = try carol.other.sendText(roomID: room, body: "second root")
        let third = try bo.other.sendText(roomID: room, body: "third root")
        let a1 = try carol.other.send(roomID: room, content: threadReply("carol in first", root: first, latest: first))
        let a2 = try bo.other.send(roomID: room, content: threadReply("bo in first", root: first, latest: a1))
        let b1 = try carol.other.send(roomID: room, content: threadReply("carol in second", root: second, latest: second))
        let plain = try carol.other.sendText(roomID: room, body: "an older client's reply", inReplyTo: third)

        let source = try open(room, as: ann, usesCache: false)
        defer { source.stop() }
        let opening = try collectUpdates(from: source) { self.latest($0, of: first) != nil && self.latest($0, of: second) != nil }
        let shown = source.opened.comments.map(\.id)
        XCTAssertEqual(shown, [first, second, third, plain], "roots and the plain reply; no thread reply")
        let firstSummary = try XCTUnwrap(latest(opening, of: first) ?? nil)
        XCTAssertEqual([firstSummary.replyCount], [2])
        XCTAssertEqual(firstSummary.latestAuthor, bo.account.userID)
        XCTAssertEqual(firstSummary.latestName, "Bo")
        let secondSummary = try XCTUnwrap(latest(opening, of: second) ?? nil)
        XCTAssertEqual(secondSummary.replyCount, 1)
        XCTAssertEqual(secondSummary.latestAuthor, carol.account.userID)
        XCTAssertNil(latest(opening, of: third), "no thread under the third root")
        XCTAssertFalse(opening.flatMap(\.appended).contains { [a1, a2, b1].contains($0.id) })

        // Live: a reply in the second post counts there once; Carol mentions Ann in the first.
        let b2 = try bo.other.send(roomID: room, content: threadReply("bo in second", root: second, latest: b1))
        let live = try collectUpdates(from: source) { (self.latest($0, of: second) ?? nil)?.replyCount == 2 }
        XCTAssertEqual((latest(live, of: second) ?? nil)?.latestAuthor, bo.account.userID)
        XCTAssertFalse(live.flatMap(\.appended).contains { $0.id == b2 }, "not in the room's feed")
        _ = try carol.other.send(roomID: room, content: threadReply("\(ann.account.userID): look", root: first, latest: a2,
                                                                     mentioning: ann.account.userID))
        let mentioned = try collectUpdates(from: source) { (self.latest($0, of: first) ?? nil)?.replyCount == 3 }
        let counted = try XCTUnwrap(latest(mentioned, of: first) ?? nil)
        XCTAssertEqual(counted.latestAuthor, carol.account.userID)
        XCTAssertTrue(counted.isUnread, "the server counts the post's replies unread")
        XCTAssertEqual(counted.unreadCount, 3)
        XCTAssertEqual(counted.mentionCount, 1, "Carol's reply mentions Ann")
        XCTAssertEqual(source.takeUpdates().filter { if case .postSummaryChanged(first, _) = $0 { true } else { false } }.count, 0)
    }

    /// On screen: the room's feed shows the root with its summary line under it and none of
    /// the thread's replies; a live reply moves the line.
    func testTheSummaryLineShowsUnderItsRootOnScreenAndMovesLive() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Posts on screen", on: server)
        try bo.other.sendText(roomID: room, body: "the room's post")
        let root = try bo.other.sendText(roomID: room, body: "a root with replies")
        let reply = try bo.other.send(roomID: room, content: threadReply("hidden in the thread", root: root, latest: root))
        let source = try open(room, as: ann, usesCache: false)
        defer { source.stop() }
        let pilot = pilot(source, columns: 60, rows: 20)
        pump(pilot, source, "the summary line") { screenHas(pilot, "↳ 1 reply · Bo now") }
        XCTAssertFalse(screenHas(pilot, "hidden in the thread"))
        try bo.other.send(roomID: room, content: threadReply("also hidden", root: root, latest: reply))
        pump(pilot, source, "the live reply counted") { screenHas(pilot, "↳ 2 replies · Bo now") }
        XCTAssertFalse(screenHas(pilot, "also hidden"))
        let rootRow = try XCTUnwrap(pilot.lines.firstIndex { $0.contains("a root with replies") })
        XCTAssertTrue(pilot.lines[rootRow + 1].contains("↳ 2 replies"), "right under the root's text: \(pilot.lines)")
    }
}
