import Foundation
import XCTest
import SynapseFixture
@testable import CommentTUI

/// Home's post rows from the real Synapse: the account's sync (its own filter, which asks for
/// per-post counts) and the room's `/threads`, with others replying in threads as Element does
/// and one mentioning the reader in a thread reply.
final class MatrixRoomPostsSynapseTests: SharedSynapseTestCase {
    private func threadReply(_ body: String, root: String, mentioning: String? = nil) -> [String: Any] {
        var content: [String: Any] = [
            "msgtype": "m.text", "body": body,
            "m.relates_to": ["rel_type": "m.thread", "event_id": root, "is_falling_back": true, "m.in_reply_to": ["event_id": root]],
        ]
        if let mentioning { content["m.mentions"] = ["user_ids": [mentioning]] }
        return content
    }

    func testPostRowsComeFromThreadsWithTheServersPerPostCounts() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Posts at home", on: server)
        let carol = try registerUser("carol", displayName: "Carol", on: server)
        _ = try carol.other.join(room)
        var roots: [String] = []
        for n in 1...4 { roots.append(try bo.other.sendText(roomID: room, body: "post \(n)\nits details")) }
        for root in roots { try bo.other.send(roomID: room, content: threadReply("bo replies", root: root)) }
        // Carol mentions Ann in the second post: its activity is the newest.
        try carol.other.send(roomID: room, content: threadReply("\(ann.account.userID): your turn", root: roots[1],
                                                                mentioning: ann.account.userID))

        var rooms = MatrixAccountRooms(account: ann.account.userID)
        let answer = try ann.client.sync(since: nil, filter: MatrixAccountFilter.lean, wait: 0)
        rooms.apply(sync: answer, at: Date())
        let page = try ann.client.threads(room: room, limit: MatrixRoomPosts.asked)
        XCTAssertEqual(page.roots.count, 4, "every root with replies")
        rooms.setPosts(roomID: room, MatrixRoomPosts(roots: page.roots, next: page.next, limits: rooms.limits))

        let rows = rooms.summaries
        let posts = rows.filter { $0.key.postRoom == .room(account: ann.account.userID, roomID: room) }
        XCTAssertEqual(posts.map(\.key.postLocator), [roots[1], roots[3], roots[2]].map { "matrix:\(room)/\($0)" },
                       "the newest three by activity")
        XCTAssertEqual(posts.last?.morePosts, "1")
        let mentioned = try XCTUnwrap(posts.first)
        XCTAssertEqual(mentioned.name, "post 2")
        XCTAssertEqual(mentioned.replies, 2)
        XCTAssertEqual(mentioned.author, "Carol")
        XCTAssertEqual([mentioned.unread, mentioned.highlights], [2, 1], "Bo's and Carol's replies; Carol's mentions Ann")
        XCTAssertEqual([posts[1].unread, posts[1].highlights], [1, 0])
        // The room's row counts its own timeline's and its posts'.
        let main = answer["rooms"]?["join"]?[room]?["unread_notifications"]?["notification_count"]?.int ?? -1
        let roomRow = try XCTUnwrap(rooms.summary(roomID: room))
        XCTAssertEqual(roomRow.unread, main + 5)
        XCTAssertEqual(roomRow.highlights, 1)
    }

    /// The account's link asks for a start's newest rooms' posts, and again for a room whose
    /// sync brought a thread reply; home's rows come through the mailbox.
    func testTheAccountsLinkAsksForPostsAtTheStartAndWhenAThreadMoves() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Posts through the link", on: server)
        let first = try bo.other.sendText(roomID: room, body: "first post")
        try bo.other.send(roomID: room, content: threadReply("a reply", root: first))
        let mailbox = try ClientMailbox()
        let account = MatrixAccounts.Account(userID: ann.account.userID, homeserver: server.baseURL.absoluteString,
                                             accessToken: ann.account.accessToken, deviceID: "D")
        let link = AccountLink(account: account, client: ann.client, environment: [:], usesCache: false, mailbox: mailbox)
        defer { link.close() }
        func postRows(until done: ([ThreadSummary]) -> Bool) throws -> [ThreadSummary] {
            let deadline = Date().addingTimeInterval(20)
            var rows: [ThreadSummary] = []
            while Date() < deadline {
                for case .summaries(_, let list) in mailbox.take() { rows = list.filter { $0.key.postRoom != nil } }
                if done(rows) { return rows }
                _ = try Poll.readable([mailbox.ready], timeout: 0.5)
            }
            XCTFail("post rows never came: \(rows.map(\.name))")
            return rows
        }
        var answer = try ann.client.sync(since: nil, filter: MatrixAccountFilter.lean, wait: 0)
        try link.accountSynced(answer)
        XCTAssertEqual(try postRows { !$0.isEmpty }.map(\.name), ["first post"])

        let second = try bo.other.sendText(roomID: room, body: "second post")
        try bo.other.send(roomID: room, content: threadReply("another", root: second))
        answer = try ann.client.sync(since: answer["next_batch"]?.string, filter: MatrixAccountFilter.lean, wait: 0)
        try link.accountSynced(answer)
        let rows = try postRows { $0.count == 2 }
        XCTAssertEqual(rows.sorted { $0.activity! > $1.activity! }.map(\.name), ["second post", "first post"])
        XCTAssertEqual(rows.first { $0.name == "second post" }?.unread, 1, "its own count")
    }
}
