@testable import CommentTUI
import CommentTUITestSupport
import Foundation
import ThreadModel
import XCTest

/// A room left (or an invite declined) goes from home and the Ctrl-K switcher with its posts:
/// rows the account's link posts before its sync knows it left do not bring them back.
final class ClientLeftRoomPostsTests: XCTestCase {
    func testALeftRoomsPostsDoNotLinger() throws {
        let room = ThreadKey.room(account: "@ann:h.org", roomID: "!r:h.org")
        let post = ThreadKey.post(account: "@ann:h.org", roomID: "!r:h.org", root: "$p")
        let other = ThreadKey.post(account: "@ann:h.org", roomID: "!o:h.org", root: "$q")
        let rows = [ThreadSummary(key: room, name: "Room", activity: ThreadFixture.now),
                    ThreadSummary(key: post, name: "A post", activity: ThreadFixture.now),
                    ThreadSummary(key: .room(account: "@ann:h.org", roomID: "!o:h.org"), name: "Other", activity: ThreadFixture.now),
                    ThreadSummary(key: other, name: "Another post", activity: ThreadFixture.now)]
        let opener = try ThreadOpener(inBackground: false) { _, _ in
            OpenCommand.Target(source: try QueuedThreadSource(thread: ThreadFixture.numbered(1).thread), me: ThreadFixture.ann)
        }
        let client = CommentClient(columns: 50, rows: 16, settings: CommentClient.SessionSettings(), start: nil, startKey: nil,
                                   summaries: [], opener: opener, mailbox: try ClientMailbox())
        client.leftRooms.insert(room)
        client.receive(ClientMailbox.Message.summaries(account: "@ann:h.org", rows))
        XCTAssertNil(client.summaries[room])
        XCTAssertNil(client.summaries[post], "the left room's post goes with it")
        XCTAssertNotNil(client.summaries[other])
    }
}
