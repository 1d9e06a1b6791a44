import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// A post's `new` divider comes from our own threaded read receipt (`thread_id`: its root), as
/// the room's comes from `m.fully_read`, against the real Synapse: one left by another client of
/// ours (as Element sends it) or by this one, read back when the post opens from the server or
/// from its offline copy; the room's receipts (in `main`, or unthreaded) place none.
final class MatrixPostUnreadDividerTests: SharedSynapseTestCase {
    private struct Post {
        var bo: MatrixTestUser
        var ann: MatrixTestUser
        var room: String
        var root: String
        /// The replies' event ids, "reply 1" first.
        var replies: [String] = []

        /// Bo replies in the post, as Element does; the reply's id is kept.
        mutating func reply(_ count: Int) throws {
            for _ in 0..<count {
                replies.append(try bo.other.send(roomID: room, content: [
                    "msgtype": "m.text", "body": "reply \(replies.count + 1)",
                    "m.relates_to": ["rel_type": "m.thread", "event_id": root, "is_falling_back": true,
                                     "m.in_reply_to": ["event_id": replies.last ?? root]],
                ]))
            }
        }

        /// Ann's other client (Element) moves her receipt: in `thread` (nil: unthreaded).
        func receipt(on eventID: String, thread: String?, kind: String = "m.read") throws {
            _ = try ann.other.call("POST", "/_matrix/client/v3/rooms/\(room)/receipt/\(kind)/\(eventID)",
                               body: thread.map { ["thread_id": $0] } ?? [:])
        }
    }

    private func post(replies: Int) throws -> Post {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Post unread", on: server)
        var post = Post(bo: bo, ann: ann, room: room, root: try bo.other.sendText(roomID: room, body: "A post"))
        try post.reply(replies)
        return post
    }

    /// Opens the post as Ann; `accountSync`: the account's running sync, as home opens a post.
    private func open(_ post: Post, environment: [String: String], usesCache: Bool = false,
                      accountSync: MatrixAccountSync? = nil) throws -> MatrixThreadSource {
        try MatrixThreadSource(client: post.ann.client, address: XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(post.room)/\(post.root)")),
                               me: post.ann.account.userID, environment: environment, usesCache: usesCache, accountSync: accountSync)
    }

    /// The opened post on screen once `last` shows (its updates taken, frames drawn).
    private func screen(of source: MatrixThreadSource, showing last: String) -> Pilot {
        let pilot = pilot(source, columns: 60, rows: 30)
        pump(pilot, source, "\(last) on screen") { screenHas(pilot, last) }
        return pilot
    }

    /// Whether the first reply's body under the divider's row is `body` (the screen as shown).
    private func dividerIsRightAbove(_ body: String, on pilot: Pilot, file: StaticString = #filePath, line: UInt = #line) {
        let lines = pilot.lines
        guard let divider = lines.firstIndex(where: { $0.hasPrefix(" ─") && $0.contains(" new ") }) else {
            return XCTFail("no divider: \(lines.joined(separator: "\n"))", file: file, line: line)
        }
        let firstBody = lines[(divider + 1)...].first { $0.range(of: #"reply \d+$"#, options: .regularExpression) != nil }
        XCTAssertEqual(firstBody.map { $0.hasSuffix(" " + body) }, true, "\(lines.joined(separator: "\n"))", file: file, line: line)
    }

    func testAnotherClientsThreadedReceiptPlacesTheDividerWhenThePostOpens() throws {
        var post = try post(replies: 5)
        try post.receipt(on: post.replies[2], thread: post.root)
        try post.reply(2)

        let source = try open(post, environment: temporaryDataEnvironment())
        defer { source.stop() }
        let pilot = screen(of: source, showing: "reply 7")
        XCTAssertEqual(pilot.firstUnreadIndex, 3, "right after reply 3: \(pilot.lines.joined(separator: "\n"))")
        dividerIsRightAbove("reply 4", on: pilot)
        XCTAssertEqual(pilot.unreadStatus, "4 unread · Alt-U")
    }

    /// As home opens it: from the position of the account's sync, running, with no sync of its own.
    func testTheDividerIsPlacedWhenThePostOpensFromTheAccountsSync() throws {
        var post = try post(replies: 3)
        let sync = MatrixAccountSync(client: post.ann.client)
        sync.start()
        defer { sync.stop() }
        let deadline = Date().addingTimeInterval(15)
        while sync.position == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertNotNil(sync.position, "the account's sync answered")
        try post.receipt(on: post.replies[1], thread: post.root)
        try post.reply(1)

        let source = try open(post, environment: temporaryDataEnvironment(), accountSync: sync)
        defer { source.stop() }
        let pilot = screen(of: source, showing: "reply 4")
        XCTAssertEqual(pilot.firstUnreadIndex, 2, pilot.lines.joined(separator: "\n"))
        dividerIsRightAbove("reply 3", on: pilot)
    }

    func testAPrivateThreadedReceiptPlacesItToo() throws {
        var post = try post(replies: 4)
        try post.receipt(on: post.replies[0], thread: post.root)
        try post.receipt(on: post.replies[1], thread: post.root, kind: "m.read.private")
        try post.reply(1)

        let source = try open(post, environment: temporaryDataEnvironment())
        defer { source.stop() }
        let pilot = screen(of: source, showing: "reply 5")
        XCTAssertEqual(pilot.firstUnreadIndex, 2, "the later of the public and the private: \(pilot.lines.joined(separator: "\n"))")
        dividerIsRightAbove("reply 3", on: pilot)
    }

    /// The room's own receipts, on a message after every reply, say nothing of the post's.
    func testTheRoomsReceiptsPlaceNoPostDivider() throws {
        var post = try post(replies: 4)
        try post.receipt(on: post.replies[1], thread: post.root)
        let later = try post.bo.other.sendText(roomID: post.room, body: "the room goes on")
        try post.receipt(on: later, thread: "main")
        try post.receipt(on: later, thread: nil)
        try post.reply(1)

        let source = try open(post, environment: temporaryDataEnvironment())
        defer { source.stop() }
        let pilot = screen(of: source, showing: "reply 5")
        XCTAssertEqual(pilot.firstUnreadIndex, 2, "after the post's own receipt: \(pilot.lines.joined(separator: "\n"))")
        dividerIsRightAbove("reply 3", on: pilot)

        // With only the room's receipts, the post has no divider at all.
        var other = try self.post(replies: 2)
        let after = try other.bo.other.sendText(roomID: other.room, body: "the room goes on")
        try other.receipt(on: after, thread: "main")
        try other.receipt(on: after, thread: nil)
        try other.reply(1)
        let plain = try open(other, environment: temporaryDataEnvironment())
        defer { plain.stop() }
        let unmarked = screen(of: plain, showing: "reply 3")
        XCTAssertNil(unmarked.firstUnreadIndex, unmarked.lines.joined(separator: "\n"))
    }

    /// Our own receipt, sent as the post was read on screen; a second later, with more replies,
    /// the post opens from the server with the divider where the reading stopped.
    func testWhatWeReadInAPostIsWhereItsDividerIsASecondLater() throws {
        var post = try post(replies: 3)
        let environment = temporaryDataEnvironment()
        let first = try open(post, environment: environment)
        let reading = screen(of: first, showing: "reply 3")
        pause(reading, first)
        // What the launcher does at exit: the marker saved, the source closed.
        try? reading.app.saveReadMarker()
        first.stop()
        try waitForReceipt(of: post, toBe: post.replies[2])
        try post.reply(2)
        Thread.sleep(forTimeInterval: 1)

        let again = try open(post, environment: environment)
        defer { again.stop() }
        let pilot = screen(of: again, showing: "reply 5")
        XCTAssertEqual(pilot.firstUnreadIndex, 3, pilot.lines.joined(separator: "\n"))
        dividerIsRightAbove("reply 4", on: pilot)
        XCTAssertEqual(pilot.unreadStatus, "2 unread · Alt-U")
    }

    /// Opened from its offline copy, the post catches up; Element read further meanwhile: the
    /// divider moves to after what Element read.
    func testAReceiptMovedElsewhereWhileThePostWasClosedMovesItsDividerFromTheCopy() throws {
        var post = try post(replies: 2)
        let environment = temporaryDataEnvironment()
        let first = try open(post, environment: environment, usesCache: true)
        let reading = screen(of: first, showing: "reply 2")
        pause(reading, first)
        // What the launcher does at exit: the marker saved, the source closed.
        try? reading.app.saveReadMarker()
        first.stop()
        try waitForReceipt(of: post, toBe: post.replies[1])
        try post.reply(3)
        try post.receipt(on: post.replies[3], thread: post.root)
        try post.reply(1)

        let again = try open(post, environment: environment, usesCache: true)
        defer { again.stop() }
        XCTAssertTrue(again.isCatchingUp)
        let pilot = screen(of: again, showing: "reply 6")
        pump(pilot, again, "the divider after reply 4") { pilot.firstUnreadIndex == 4 }
        dividerIsRightAbove("reply 5", on: pilot)
    }

    /// Home's row for the post counts what the divider then shows unread: both from the same
    /// receipt (home's from the server's per-post counts, `unread_thread_notifications`).
    func testHomesCountForThePostAgreesWithItsDivider() throws {
        var post = try post(replies: 4)
        try post.receipt(on: post.replies[0], thread: post.root)
        try post.reply(2)

        var home = MatrixAccountRooms(account: post.ann.account.userID)
        home.apply(sync: try post.ann.client.sync(since: nil, filter: MatrixAccountFilter.lean, wait: 0))
        home.setPosts(roomID: post.room, MatrixRoomPosts(roots: try post.ann.client.threads(room: post.room, limit: 10).roots, next: nil,
                                                         limits: .init()))
        let row = try XCTUnwrap(home.summaries.first { $0.key == .post(account: post.ann.account.userID, roomID: post.room, root: post.root) })
        XCTAssertEqual(row.unread, 5)

        let source = try open(post, environment: temporaryDataEnvironment())
        defer { source.stop() }
        let pilot = screen(of: source, showing: "reply 6")
        XCTAssertEqual(pilot.unreadStatus, "\(row.unread) unread · Alt-U", pilot.lines.joined(separator: "\n"))
        dividerIsRightAbove("reply 2", on: pilot)
    }

    /// Bo reacts to a reply, as Element does; the reaction's id.
    private func react(in post: Post, to eventID: String) throws -> String {
        try post.bo.other.send(roomID: post.room, content: ["m.relates_to": ["rel_type": "m.annotation", "event_id": eventID, "key": "👍"]],
                               type: "m.reaction")
    }

    /// Element X puts its receipt on the newest event of the post, here a reaction to an older
    /// reply, which no `/relations` page holds: read as far as it arrived, so the divider is after
    /// the replies sent before it, where home's count (the server's) puts it too.
    func testAReceiptOnAReactionPlacesTheDividerAfterWhatHadArrived() throws {
        var post = try post(replies: 4)
        let reaction = try react(in: post, to: post.replies[1])
        try post.receipt(on: reaction, thread: post.root)
        try post.reply(2)

        var home = MatrixAccountRooms(account: post.ann.account.userID)
        home.apply(sync: try post.ann.client.sync(since: nil, filter: MatrixAccountFilter.lean, wait: 0))
        home.setPosts(roomID: post.room, MatrixRoomPosts(roots: try post.ann.client.threads(room: post.room, limit: 10).roots, next: nil,
                                                         limits: .init()))
        let row = try XCTUnwrap(home.summaries.first { $0.key == .post(account: post.ann.account.userID, roomID: post.room, root: post.root) })
        XCTAssertEqual(row.unread, 2, "the server takes the receipt on the reaction")

        let source = try open(post, environment: temporaryDataEnvironment())
        defer { source.stop() }
        let pilot = screen(of: source, showing: "reply 6")
        XCTAssertEqual(pilot.firstUnreadIndex, 4, pilot.lines.joined(separator: "\n"))
        dividerIsRightAbove("reply 5", on: pilot)
        XCTAssertEqual(pilot.unreadStatus, "\(row.unread) unread · Alt-U")
    }

    /// The same for a receipt on an edit of a reply (Element's receipt on the newest event).
    func testAReceiptOnAnEditPlacesTheDividerAfterWhatHadArrived() throws {
        var post = try post(replies: 3)
        let edit = try post.bo.other.send(roomID: post.room, content: [
            "msgtype": "m.text", "body": "* reply 1 fixed",
            "m.new_content": ["msgtype": "m.text", "body": "reply 1 fixed"],
            "m.relates_to": ["rel_type": "m.replace", "event_id": post.replies[0]],
        ])
        try post.receipt(on: edit, thread: post.root)
        try post.reply(1)

        let source = try open(post, environment: temporaryDataEnvironment())
        defer { source.stop() }
        let pilot = screen(of: source, showing: "reply 4")
        XCTAssertEqual(pilot.firstUnreadIndex, 3, pilot.lines.joined(separator: "\n"))
        dividerIsRightAbove("reply 4", on: pilot)
    }

    /// A receipt of ours on a reaction, brought by a sync while the post is open, leaves the
    /// marker on the comment it stood on: reopened from its copy, the post's divider is there.
    func testAReceiptOnAReactionInASyncLeavesTheMarkerOnAComment() throws {
        var post = try post(replies: 3)
        try post.receipt(on: post.replies[2], thread: post.root, kind: "m.read.private")
        let environment = temporaryDataEnvironment()
        // Not shown: the reader reading what arrives would move the marker itself.
        let first = try open(post, environment: environment, usesCache: true)
        XCTAssertEqual(first.locked { first.markerSent }, post.replies[2])
        try post.receipt(on: try react(in: post, to: post.replies[2]), thread: post.root)
        // A sync with this reply has the receipt sent before it, in it or in an earlier one.
        try post.reply(1)
        waitUntil(first, applied: post.replies[3])
        XCTAssertEqual(first.locked { first.markerSent }, post.replies[2], "still on reply 3")
        first.stop()

        let again = try open(post, environment: environment, usesCache: true)
        defer { again.stop() }
        let pilot = screen(of: again, showing: "reply 4")
        XCTAssertEqual(pilot.firstUnreadIndex, 3, pilot.lines.joined(separator: "\n"))
    }

    /// Our private receipt on reply 4, then Element's public one on reply 2 in a later sync: the
    /// marker stays on reply 4 (the later of the two), also in the copy a reopen starts from.
    func testAnOlderPublicReceiptInALaterSyncDoesNotMoveTheMarkerBack() throws {
        var post = try post(replies: 4)
        try post.receipt(on: post.replies[3], thread: post.root, kind: "m.read.private")
        let environment = temporaryDataEnvironment()
        let first = try open(post, environment: environment, usesCache: true)
        XCTAssertEqual(first.locked { first.markerSent }, post.replies[3])
        try post.receipt(on: post.replies[1], thread: post.root)
        try post.reply(1)
        waitUntil(first, applied: post.replies[4])
        XCTAssertEqual(first.locked { first.markerSent }, post.replies[3], "still on reply 4")
        first.stop()

        let again = try open(post, environment: environment, usesCache: true)
        defer { again.stop() }
        let pilot = screen(of: again, showing: "reply 5")
        XCTAssertEqual(pilot.firstUnreadIndex, 4, pilot.lines.joined(separator: "\n"))
    }

    /// Waits (bounded) until a sync brought `eventID` to the source (no app taking its updates).
    private func waitUntil(_ source: MatrixThreadSource, applied eventID: String, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(20)
        while !source.locked({ source.timeline.knows(eventID) }), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertTrue(source.locked { source.timeline.knows(eventID) }, "the sync brought \(eventID)", file: file, line: line)
    }

    /// Waits (bounded) until the server has Ann's threaded receipt in the post on `eventID`.
    private func waitForReceipt(of post: Post, toBe eventID: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let filter = #"{"room":{"rooms":["\#(post.room)"],"timeline":{"limit":1},"ephemeral":{"types":["m.receipt"]}}}"#
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            let answer = try post.ann.other.sync(filter: filter)
            let room = ((answer["rooms"] as? [String: Any])?["join"] as? [String: Any])?[post.room] as? [String: Any]
            let events = (room?["ephemeral"] as? [String: Any])?["events"] as? [[String: Any]] ?? []
            let content = events.compactMap { $0["content"] as? [String: Any] }
            let mine = content.compactMap { $0[eventID] as? [String: Any] }.flatMap { receipt in
                ["m.read", "m.read.private"].compactMap { (receipt[$0] as? [String: Any])?[post.ann.account.userID] as? [String: Any] }
            }
            if mine.contains(where: { $0["thread_id"] as? String == post.root }) { return }
            Thread.sleep(forTimeInterval: 0.2)
        }
        XCTFail("the server has no receipt of Ann's in the post on \(eventID)", file: file, line: line)
    }
}
