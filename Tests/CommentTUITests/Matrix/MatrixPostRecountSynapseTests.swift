import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI

/// Against the real Synapse: a post whose replies came in a limited sync (some left in a gap)
/// is read again, so its count is the server's; the gap's older replies, filled later, are not
/// added again.
final class MatrixPostRecountSynapseTests: SharedSynapseTestCase {
    private func threadReply(_ body: String, root: String) -> [String: Any] {
        ["msgtype": "m.text", "body": body,
         "m.relates_to": ["rel_type": "m.thread", "event_id": root, "is_falling_back": true, "m.in_reply_to": ["event_id": root]]]
    }

    private func count(_ updates: [ThreadUpdate], of root: String) -> Int? {
        for update in updates.reversed() {
            if case .postSummaryChanged(root, let summary) = update { return summary?.replyCount }
        }
        return nil
    }

    func testAPostsCountAfterALimitedSyncAndItsGapIsTheServers() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Recount", on: server)
        let root = try bo.other.sendText(roomID: room, body: "a root")
        try bo.other.send(roomID: room, content: threadReply("reply 0", root: root))
        let source = try open(room, as: ann, follows: false, usesCache: false)
        defer { source.stop() }
        // More replies than a sync and the one page read back at once: the rest is a gap.
        let replies = MatrixAccountFilter.timelineLimit + MatrixThreadSource.gapPageSize + 30
        for n in 1...replies { try bo.other.send(roomID: room, content: threadReply("reply \(n)", root: root)) }
        source.startSyncing()
        var updates = try collectUpdates(from: source, timeout: 60) { self.count($0, of: root) == replies + 1 }
        guard let gap = updates.lazy.compactMap({ update -> String? in if case .gap(let id) = update { id } else { nil } }).first else {
            return XCTFail("no gap: \(updates.map(describe))")
        }
        source.fillGap(gap)
        updates = try collectUpdates(from: source, timeout: 60) { updates in
            updates.contains { if case .gapFilled(_, _, true) = $0 { true } else { false } }
        }
        // A moment for a re-read the fill might have asked for.
        Thread.sleep(forTimeInterval: 1)
        updates += source.takeUpdates()
        XCTAssertEqual(count(updates, of: root) ?? replies + 1, replies + 1, "the gap's replies not added again")
    }
}
