import XCTest
import ThreadModel
import SynapseFixture
@testable import CommentTUI

/// Posts and reactions with another Matrix client, matrix-nio (PyPI), as the other person:
/// it posts, replies in a thread as Element does, replies plainly and reacts; comment-tui shows
/// the room and the post, and what comment-tui sends in the post reaches that client as a thread
/// reply with its fallback.
final class MatrixNioPeerPostTests: SharedSynapseTestCase {
    func testAnotherClientsThreadAndReactionShowAndOurReplyReachesItInTheThread() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("With nio", on: server)
        let peer = MatrixNioPeer(homeserver: server.baseURL, userID: bo.account.userID, password: bo.account.password)
        let sent = try peer.run([
            .send(room: room, content: ["msgtype": "m.text", "body": "Welcome to the trip room"]),
            .send(room: room, content: ["msgtype": "m.text", "body": "Ferry plans\nwhich one do we take"]),
        ])
        let root = try XCTUnwrap(sent.last?["event_id"] as? String)
        let more = try peer.run([
            .send(room: room, content: ["msgtype": "m.text", "body": "the early one",
                                        "m.relates_to": ["rel_type": "m.thread", "event_id": root, "is_falling_back": true,
                                                         "m.in_reply_to": ["event_id": root]]]),
            .send(room: room, content: ["msgtype": "m.text", "body": "> <\(bo.account.userID)> Ferry plans\n\na plain reply",
                                        "m.relates_to": ["m.in_reply_to": ["event_id": root]]]),
            .send(room: room, type: "m.reaction", content: ["m.relates_to": ["rel_type": "m.annotation", "event_id": root, "key": "👍"]]),
        ])
        let threadReply = try XCTUnwrap(more.first?["event_id"] as? String)

        // The room: the root with its post's summary and nio's reaction; the thread's reply is in
        // its post, the plain reply stays.
        let feed = try open(room, as: ann, follows: false)
        defer { feed.stop() }
        XCTAssertEqual(feed.opened.comments.map(\.body), ["Ferry plans\nwhich one do we take", "a plain reply"])
        XCTAssertEqual(feed.locked { feed.timeline.threadSummaries.entries[root]?.count }, 1)
        XCTAssertEqual(feed.locked { feed.timeline.reactions.counts(of: root, me: ann.account.userID) },
                       [ReactionCount(key: "👍", count: 1, includesMine: false)])

        // The post: its root the header, nio's thread reply its comment.
        let post = try MatrixThreadSource(client: ann.client, address: XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)/\(root)")),
                                          me: ann.account.userID, environment: temporaryDataEnvironment(), usesCache: false)
        defer { post.stop() }
        XCTAssertEqual(post.thread.title, "Ferry plans")
        XCTAssertEqual(post.opened.comments.map(\.id), [threadReply])

        // Ours in the post, as nio reads it from the server: in the thread, falling back to the
        // newest reply for clients without threads.
        let mine = comment(by: ann, "the late one, surely")
        XCTAssertEqual(post.send(mine), .pending)
        try collectUpdates(from: post) { $0.contains { if case .sendConfirmed(mine.id) = $0 { true } else { false } } }
        let ours = try XCTUnwrap(post.locked { post.timeline.eventID(forComment: mine.id) })
        let seen = try peer.event(room: room, id: ours)
        let relation = (seen["content"] as? [String: Any])?["m.relates_to"] as? [String: Any]
        XCTAssertEqual(relation?["rel_type"] as? String, "m.thread")
        XCTAssertEqual(relation?["event_id"] as? String, root)
        XCTAssertEqual(relation?["is_falling_back"] as? Bool, true)
        XCTAssertEqual((relation?["m.in_reply_to"] as? [String: Any])?["event_id"] as? String, threadReply)
        XCTAssertEqual((seen["content"] as? [String: Any])?["body"] as? String, "the late one, surely")
    }
}
