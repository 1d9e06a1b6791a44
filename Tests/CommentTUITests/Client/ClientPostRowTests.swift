@testable import CommentTUI
import CommentTUITestSupport
import Foundation
import ThreadModel
import XCTest

/// Home's post row, chosen: the post opens as a thread of its own, under the post's key (once:
/// chosen again, the open one shows), not its room.
final class ClientPostRowTests: XCTestCase {
    private final class Asked { var keys: [ThreadKey] = [] }

    func testChoosingAPostOpensThePostOnce() throws {
        let room = ThreadKey.room(account: "@ann:h.org", roomID: "!r:h.org")
        let post = ThreadKey.post(account: "@ann:h.org", roomID: "!r:h.org", root: "$p")
        let asked = Asked()
        let opener = try ThreadOpener(inBackground: false) { key, _ in
            asked.keys.append(key)
            return OpenCommand.Target(source: try QueuedThreadSource(thread: ThreadFixture.numbered(3).thread), me: ThreadFixture.ann)
        }
        let client = CommentClient(columns: 50, rows: 16, settings: CommentClient.SessionSettings(), start: nil, startKey: nil,
                                   summaries: [ThreadSummary(key: room, name: "Room", activity: ThreadFixture.now),
                                               ThreadSummary(key: post, name: "A post", activity: ThreadFixture.now)],
                                   opener: opener, mailbox: try ClientMailbox())
        let pilot = Pilot(client: client, screen: HeadlessScreen(columns: 50, rows: 16))
        client.show(post)
        pilot.takeUpdates()
        XCTAssertEqual(asked.keys, [post])
        XCTAssertEqual(client.place, .thread(post))
        client.showHome()
        client.show(post)
        pilot.takeUpdates()
        XCTAssertEqual(asked.keys, [post], "opened once")
        XCTAssertEqual(client.place, .thread(post))
    }
}
