@testable import CommentTUI
import CommentTUITestSupport
import Foundation
import ThreadModel
import XCTest

/// A post with comments queued in its outbox (the client was killed before they went) opens in
/// the background when home first lists it, so they are sent without the reader opening it;
/// home stays on screen, and a post with nothing queued is not opened.
final class ClientQueuedPostTests: XCTestCase {
    private final class Asked { var keys: [ThreadKey] = [] }

    func testAListedPostWithQueuedCommentsOpensUnshownOnce() throws {
        let room = ThreadKey.room(account: "@ann:h.org", roomID: "!r:h.org")
        let quiet = ThreadKey.post(account: "@ann:h.org", roomID: "!r:h.org", root: "$quiet")
        let queued = ThreadKey.post(account: "@ann:h.org", roomID: "!r:h.org", root: "$queued")
        let asked = Asked()
        let opener = try ThreadOpener(inBackground: false) { key, _ in
            asked.keys.append(key)
            return OpenCommand.Target(source: try QueuedThreadSource(thread: ThreadFixture.numbered(3).thread), me: ThreadFixture.ann)
        }
        let client = CommentClient(columns: 50, rows: 16, settings: CommentClient.SessionSettings(), start: nil, startKey: nil,
                                   summaries: [], opener: opener, mailbox: try ClientMailbox())
        client.postHasQueuedComments = { $0 == queued }
        let pilot = Pilot(client: client, screen: HeadlessScreen(columns: 50, rows: 16))
        let rows = [room, quiet, queued].map { ThreadSummary(key: $0, name: $0.description, activity: ThreadFixture.now) }
        client.receive(.summaries(account: "@ann:h.org", rows))
        pilot.takeUpdates()
        XCTAssertEqual(asked.keys, [queued], "only the post with queued comments opens")
        XCTAssertNotNil(client.sessions[queued], "open, so its outbox is sent")
        XCTAssertEqual(client.place, .home, "not shown")
        client.receive(.summaries(account: "@ann:h.org", rows))
        pilot.takeUpdates()
        XCTAssertEqual(asked.keys, [queued], "once a run")
    }

    /// The post's own outbox is what is asked: a queued comment there counts, one sent does not,
    /// and the room's outbox says nothing of the post.
    func testAPostsOutboxIsAskedByItsRoomAndRoot() throws {
        let environment = ["XDG_DATA_HOME": try temporaryDirectory(self).path]
        let post = ThreadKey.post(account: "@ann:h.org", roomID: "!r:h.org", root: "$p")
        XCTAssertFalse(CommentClient.postOutboxHasComments(post, environment: environment), "no outbox")
        let files = try XCTUnwrap(MatrixThreadSource.stateFiles(me: "@ann:h.org", roomID: "!r:h.org", root: "$p", environment: environment))
        let outbox = CommentOutbox(files: files)
        try outbox.queue(CommentOutbox.Entry(txn: "t1", author: "@ann:h.org", created: ThreadFixture.now, body: "queued"))
        XCTAssertTrue(CommentClient.postOutboxHasComments(post, environment: environment))
        XCTAssertFalse(CommentClient.postOutboxHasComments(.post(account: "@ann:h.org", roomID: "!r:h.org", root: "$q"),
                                                           environment: environment), "another post's")
        try outbox.markSent("t1", event: "$e1")
        XCTAssertFalse(CommentClient.postOutboxHasComments(post, environment: environment), "sent")
    }
}
