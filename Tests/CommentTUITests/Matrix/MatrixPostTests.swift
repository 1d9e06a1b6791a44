import XCTest
import ThreadModel
import SynapseFixture
@testable import CommentTUI

/// The inside of a post (a Matrix thread) against the real Synapse, replies sent as Element
/// sends them: opened from its root, paged back through `/relations`, followed live, written to
/// in the thread, read with a threaded receipt.
final class MatrixPostTests: SharedSynapseTestCase {
    /// A room with three roots by Bo; Bo and Cy reply in them as Element does; Ann reads.
    private struct PostRoom {
        var bo: MatrixTestUser
        var ann: MatrixTestUser
        var cy: MatrixTestUser
        var room: String
        var roots: [String]
    }

    private func postRoom(_ name: String, on server: SynapseServer) throws -> PostRoom {
        let (bo, ann, room) = try twoUsersInARoom(name, on: server)
        let cy = try registerUser("cy", displayName: "Cy", on: server)
        _ = try cy.other.join(room)
        let roots = try (1...3).map { try bo.other.sendText(roomID: room, body: "Post \($0)\nwhat it is about") }
        return PostRoom(bo: bo, ann: ann, cy: cy, room: room, roots: roots)
    }

    /// A thread reply as Element sends it: in the thread, falling back to the latest reply.
    @discardableResult
    private func reply(by user: MatrixTestUser, in room: String, root: String, latest: String? = nil, _ body: String) throws -> String {
        try user.other.send(roomID: room, content: [
            "msgtype": "m.text", "body": body,
            "m.relates_to": ["rel_type": "m.thread", "event_id": root, "is_falling_back": true,
                             "m.in_reply_to": ["event_id": latest ?? root]],
        ])
    }

    private func openPost(_ room: String, root: String, as user: MatrixTestUser,
                          environment: [String: String]? = nil, usesCache: Bool = false) throws -> MatrixThreadSource {
        try MatrixThreadSource(client: user.client, address: XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)/\(root)")),
                               me: user.account.userID, environment: environment ?? temporaryDataEnvironment(), usesCache: usesCache)
    }

    private func relation(of event: JSONValue) -> JSONValue? { event["content"]?["m.relates_to"] }

    func testAPostOpensWithItsRepliesInOrderPagesBackAndFollowsLive() throws {
        let server = try server
        let post = try postRoom("Posts inside", on: server)
        let (root, other) = (post.roots[1], post.roots[0])
        // More replies than a page, from two users; an early one edited as Element does.
        let count = MatrixThreadSource.pageSize + 3
        var ids: [String] = []
        for number in 1...count {
            let user = number.isMultiple(of: 2) ? post.cy : post.bo
            ids.append(try reply(by: user, in: post.room, root: root, latest: ids.last, "reply \(number)"))
        }
        try post.bo.other.send(roomID: post.room, content: [
            "msgtype": "m.text", "body": "* reply one edited", "m.new_content": ["msgtype": "m.text", "body": "reply one edited"],
            "m.relates_to": ["rel_type": "m.replace", "event_id": ids[0]],
        ])
        try reply(by: post.cy, in: post.room, root: other, "in another post")
        try post.cy.other.sendText(roomID: post.room, body: "an older client's reply", inReplyTo: root)

        let source = try openPost(post.room, root: root, as: post.ann)
        defer { source.stop() }
        XCTAssertEqual(source.thread.title, "Post 2", "the root is the post: its first line the title")
        XCTAssertEqual(source.thread.body, "what it is about")
        XCTAssertEqual(source.postCommentID, root)
        let newest = source.opened.comments
        XCTAssertEqual(newest.map(\.body), (4...count).map { "reply \($0)" }, "the newest page, oldest first")
        XCTAssertTrue(source.hasOlderComments)

        source.loadOlderComments()
        let older = try collectUpdates(from: source) { $0.contains { if case .olderComments = $0 { true } else { false } } }
        guard case .olderComments(let page, let hasMore)? = older.last(where: { if case .olderComments = $0 { true } else { false } }) else {
            return XCTFail("no older page")
        }
        XCTAssertEqual(page.map(\.body), ["reply one edited", "reply 2", "reply 3"], "the bundled edit applied on the older page")
        XCTAssertNotNil(page.first?.edited)
        XCTAssertFalse(hasMore, "the thread's start")
        XCTAssertFalse(source.hasOlderComments)

        // Live: the post's new reply arrives; another post's and the room's do not.
        try reply(by: post.bo, in: post.room, root: other, "elsewhere, live")
        try post.bo.other.sendText(roomID: post.room, body: "in the room, live")
        try reply(by: post.cy, in: post.room, root: root, latest: ids.last, "reply live")
        let live = try collectUpdates(from: source) { $0.flatMap(\.appended).contains { $0.body == "reply live" } }
        XCTAssertEqual(live.flatMap(\.appended).map(\.body), ["reply live"])
        XCTAssertEqual(live.flatMap(\.appended).first?.author, post.cy.account.userID)
    }

    func testOurCommentInAPostCarriesTheThreadAndFallbackAndAReplyIsARealOne() throws {
        let server = try server
        let post = try postRoom("Posts sending", on: server)
        let root = post.roots[0]
        let first = try reply(by: post.bo, in: post.room, root: root, "first reply")
        let latest = try reply(by: post.cy, in: post.room, root: root, latest: first, "latest reply")
        let source = try openPost(post.room, root: root, as: post.ann)
        defer { source.stop() }

        let comment = comment(by: post.ann, "mine, in the post")
        XCTAssertEqual(source.send(comment), .pending)
        try collectUpdates(from: source) { $0.contains { if case .sendConfirmed(comment.id) = $0 { true } else { false } } }
        let sentID = try XCTUnwrap(source.locked { source.timeline.eventID(forComment: comment.id) })
        let sent = try post.ann.client.event(room: post.room, id: sentID)
        XCTAssertEqual(relation(of: sent)?["rel_type"]?.string, "m.thread")
        XCTAssertEqual(relation(of: sent)?["event_id"]?.string, root)
        XCTAssertEqual(relation(of: sent)?["is_falling_back"]?.bool, true)
        XCTAssertEqual(relation(of: sent)?["m.in_reply_to"]?["event_id"]?.string, latest, "falls back to the newest reply")

        let answer = self.comment(by: post.ann, "to the first")
        XCTAssertEqual(source.send(answer, inReplyTo: first), .pending)
        try collectUpdates(from: source) { $0.contains { if case .sendConfirmed(answer.id) = $0 { true } else { false } } }
        let answerID = try XCTUnwrap(source.locked { source.timeline.eventID(forComment: answer.id) })
        let replied = try post.ann.client.event(room: post.room, id: answerID)
        XCTAssertEqual(relation(of: replied)?["rel_type"]?.string, "m.thread")
        XCTAssertEqual(relation(of: replied)?["event_id"]?.string, root)
        XCTAssertEqual(relation(of: replied)?["is_falling_back"]?.bool, false, "Alt-R in a post is a real reply in it")
        XCTAssertEqual(relation(of: replied)?["m.in_reply_to"]?["event_id"]?.string, first)

        // The server counts it in the thread: its /relations lists both.
        let thread = try post.bo.client.threadReplies(room: post.room, root: root, from: nil, limit: 10)
        let listed = (thread["chunk"]?.array ?? []).compactMap { $0["event_id"]?.string }
        XCTAssertTrue(listed.contains(sentID) && listed.contains(answerID), "\(listed)")
    }

    func testOurEditOfACommentInAPostIsAReplaceThatOthersSeeInThePost() throws {
        let server = try server
        let post = try postRoom("Posts editing", on: server)
        let root = post.roots[1]
        try reply(by: post.bo, in: post.room, root: root, "a question")
        let source = try openPost(post.room, root: root, as: post.ann)
        defer { source.stop() }
        let mine = comment(by: post.ann, "teh answer")
        XCTAssertEqual(source.send(mine), .pending)
        try collectUpdates(from: source) { $0.contains { if case .sendConfirmed(mine.id) = $0 { true } else { false } } }
        let sentID = try XCTUnwrap(source.locked { source.timeline.eventID(forComment: mine.id) })
        XCTAssertNil(source.change(CommentChange(comment: mine.id, author: post.ann.account.userID, created: Date(),
                                                 kind: .edit(body: "the answer")), of: mine))

        // Bo's client sees it bundled with the reply in the thread, as a whole m.replace event.
        let deadline = Date().addingTimeInterval(15)
        var edit: JSONValue?
        while edit == nil, Date() < deadline {
            let page = try post.bo.client.threadReplies(room: post.room, root: root, from: nil, limit: 10)
            let reply = (page["chunk"]?.array ?? []).first { $0["event_id"]?.string == sentID }
            edit = reply.flatMap { MatrixThreadPage.bundledEdit(of: $0, id: sentID) }
            if edit == nil { Thread.sleep(forTimeInterval: 0.5) }
        }
        let content = try XCTUnwrap(edit?["content"])
        XCTAssertEqual(content["m.relates_to"]?["rel_type"]?.string, "m.replace")
        XCTAssertEqual(content["m.new_content"]?["body"]?.string, "the answer")
        XCTAssertNil(content["m.new_content"]?["m.relates_to"], "the new content holds no relation")
        let seen = try openPost(post.room, root: root, as: post.bo)
        defer { seen.stop() }
        XCTAssertEqual(seen.opened.comments.map(\.body), ["a question", "the answer"])
    }

    func testAPostsOfflineCopyIsItsOwnNotTheRooms() throws {
        let server = try server
        let post = try postRoom("Posts kept", on: server)
        let root = post.roots[0]
        try reply(by: post.bo, in: post.room, root: root, "kept reply")
        let environment = temporaryDataEnvironment()
        let first = try openPost(post.room, root: root, as: post.ann, environment: environment, usesCache: true)
        first.stop()
        let room = try open(post.room, as: post.ann, environment: environment)
        room.stop()
        let roomAgain = try open(post.room, as: post.ann, environment: environment)
        defer { roomAgain.stop() }
        let postAgain = try openPost(post.room, root: root, as: post.ann, environment: environment, usesCache: true)
        defer { postAgain.stop() }
        XCTAssertTrue(roomAgain.isCatchingUp && postAgain.isCatchingUp, "both from their offline copies")
        XCTAssertEqual(postAgain.opened.comments.map(\.body), ["kept reply"])
        XCTAssertEqual(postAgain.thread.title, "Post 1")
        XCTAssertFalse(roomAgain.opened.comments.contains { $0.body == "kept reply" }, "the room's copy has no thread reply")
        XCTAssertTrue(roomAgain.opened.comments.contains { $0.body.hasPrefix("Post 2") })
    }

    func testReadingAPostMovesTheThreadedReceipt() throws {
        let server = try server
        let post = try postRoom("Posts receipts", on: server)
        let root = post.roots[2]
        try reply(by: post.bo, in: post.room, root: root, "one")
        let two = try reply(by: post.cy, in: post.room, root: root, "two")
        let source = try openPost(post.room, root: root, as: post.ann)
        defer { source.stop() }
        try source.saveReadMarker(ReadMarker(commentID: two, position: 1))
        XCTAssertEqual(try receiptThread(of: post.ann, on: two, in: post.room, seenBy: post.bo), root,
                       "Ann's receipt on the reply is in the post's thread")
    }

    func testReadingTheRoomsFeedSendsAReceiptInTheMainTimeline() throws {
        let server = try server
        let post = try postRoom("Posts main receipt", on: server)
        let source = try open(post.room, as: post.ann, environment: temporaryDataEnvironment(), usesCache: false)
        defer { source.stop() }
        try source.saveReadMarker(ReadMarker(commentID: post.roots[2], position: 2))
        XCTAssertEqual(try receiptThread(of: post.ann, on: post.roots[2], in: post.room, seenBy: post.bo), "main",
                       "the room's reading leaves its posts unread")
        XCTAssertEqual(try post.ann.client.fullyRead(room: post.room, userID: post.ann.account.userID), post.roots[2])
    }

    /// The `thread_id` of `reader`'s `m.read` receipt on `event`, as `other`'s sync shows it
    /// (waited for, bounded); nil when none comes.
    private func receiptThread(of reader: MatrixTestUser, on event: String, in room: String, seenBy other: MatrixTestUser) throws -> String? {
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            let sync = try other.other.sync()
            let joined = ((sync["rooms"] as? [String: Any])?["join"] as? [String: Any])?[room] as? [String: Any]
            let events = (joined?["ephemeral"] as? [String: Any])?["events"] as? [[String: Any]] ?? []
            for receipt in events where receipt["type"] as? String == "m.receipt" {
                let reads = ((receipt["content"] as? [String: Any])?[event] as? [String: Any])?["m.read"] as? [String: Any]
                if let mine = reads?[reader.account.userID] as? [String: Any] { return mine["thread_id"] as? String }
            }
            Thread.sleep(forTimeInterval: 0.5)
        }
        return nil
    }
}
