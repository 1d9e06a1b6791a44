@testable import CommentTUI
import CommentTUITestSupport
import Foundation
import ThreadModel
import XCTest

/// Home's post row, chosen: until a post opens as a thread of its own, its room opens (once,
/// under the room's key: the room is never followed twice).
final class ClientPostRowTests: XCTestCase {
    private final class Asked { var keys: [ThreadKey] = [] }

    func testChoosingAPostShowsItsRoom() throws {
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
        XCTAssertEqual(asked.keys, [room])
        XCTAssertEqual(client.place, .thread(room))
        client.showHome()
        client.show(post)
        pilot.takeUpdates()
        XCTAssertEqual(asked.keys, [room], "opened once")
        XCTAssertEqual(client.place, .thread(room))
    }
}
