import XCTest
import ThreadModel
@testable import CommentTUI

/// How the timeline reports reactions as events come: once per comment per batch, whatever
/// the batch holds.
final class MatrixTimelineReactionTests: XCTestCase {
    private func message(_ id: String, _ sender: String, _ body: String, ts: Int) -> JSONValue {
        ["type": "m.room.message", "event_id": .string(id), "sender": .string(sender), "origin_server_ts": .number(Double(ts)),
         "content": ["msgtype": "m.text", "body": .string(body)]]
    }

    private func reaction(_ id: String, to target: String, _ key: String, by sender: String, ts: Int) -> JSONValue {
        ["type": "m.reaction", "event_id": .string(id), "sender": .string(sender), "origin_server_ts": .number(Double(ts)),
         "content": ["m.relates_to": ["rel_type": "m.annotation", "event_id": .string(target), "key": .string(key)]]]
    }

    private func redaction(_ id: String, of target: String, by sender: String, ts: Int) -> JSONValue {
        ["type": "m.room.redaction", "event_id": .string(id), "sender": .string(sender), "origin_server_ts": .number(Double(ts)),
         "redacts": .string(target), "content": ["redacts": .string(target)]]
    }

    private func timeline() -> MatrixTimeline {
        var members = MatrixMembers(me: "@ann:h.org")
        members.update(["@ann:h.org": "Ann", "@bo:h.org": "Bo"])
        return MatrixTimeline(members: members)
    }

    /// The reaction updates in a batch's updates, as comment id and counts.
    private func reactionUpdates(_ updates: [ThreadUpdate]) -> [(String, [ReactionCount])] {
        updates.compactMap { if case .reactionsChanged(let id, let counts) = $0 { (id, counts) } else { nil } }
    }

    func testABatchOfReactionsToOneCommentYieldsOneUpdatePerCommentWithTheFinalCounts() {
        var line = timeline()
        _ = line.applyNewer([message("$a", "@bo:h.org", "first", ts: 1000), message("$b", "@bo:h.org", "second", ts: 1001)])
        let count = 300
        var batch = (0..<count).map { reaction("$r\($0)", to: "$a", "k\($0 % 10)", by: "@u\($0):h.org", ts: 2000 + $0) }
        batch.append(reaction("$rb", to: "$b", "👍", by: "@bo:h.org", ts: 3000))
        batch.append(redaction("$x", of: "$r0", by: "@u0:h.org", ts: 3001))
        let changes = reactionUpdates(line.applyNewer(batch))
        XCTAssertEqual(changes.map(\.0), ["$a", "$b"], "one update per comment touched, in the order first touched")
        XCTAssertEqual(changes.first?.1.reduce(0) { $0 + $1.count }, count - 1, "the counts after the whole batch")
        XCTAssertEqual(changes.last?.1, [ReactionCount(key: "👍", count: 1, includesMine: false)])
    }

    /// Reactions to events no comment is known for (older pages, or made up by a hostile room)
    /// are bounded: past the bound the events first reacted to longest ago are dropped; a
    /// loaded comment's are kept however old.
    func testReactionsToEventsNoCommentIsKnownForAreBoundedTheOldestDropped() {
        var line = timeline()
        _ = line.applyNewer([message("$a", "@bo:h.org", "loaded", ts: 1000)])
        let most = MatrixTimeline.mostLooseReactionTargets
        _ = line.applyNewer([reaction("$ra", to: "$a", "👍", by: "@bo:h.org", ts: 1500)])
        _ = line.applyNewer((0..<(most + 10)).map { reaction("$r\($0)", to: "$t\($0)", "👍", by: "@bo:h.org", ts: 2000 + $0) })
        XCTAssertEqual(line.reactions.targets.count, most + 1, "the bound, and the loaded comment")
        XCTAssertFalse(line.reactions.counts(of: "$a", me: "@ann:h.org").isEmpty, "a loaded comment's are kept")
        XCTAssertTrue(line.reactions.counts(of: "$t9", me: "@ann:h.org").isEmpty, "the oldest dropped")
        XCTAssertFalse(line.reactions.counts(of: "$t10", me: "@ann:h.org").isEmpty)
        XCTAssertFalse(line.reactions.counts(of: "$t\(most + 9)", me: "@ann:h.org").isEmpty, "the newest kept")
    }

    /// A deleted (redacted) comment drops its reactions: the app is told its counts are none,
    /// and a reaction arriving after does not count.
    func testADeletedCommentDropsItsReactions() {
        var line = timeline()
        _ = line.applyNewer([message("$a", "@bo:h.org", "soon gone", ts: 1000), reaction("$r1", to: "$a", "👍", by: "@bo:h.org", ts: 1001)])
        let deleted = line.applyNewer([redaction("$x", of: "$a", by: "@bo:h.org", ts: 2000)])
        XCTAssertEqual(reactionUpdates(deleted).map(\.0), ["$a"])
        XCTAssertEqual(reactionUpdates(deleted).first?.1, [], "no reactions left")
        let late = line.applyNewer([reaction("$r2", to: "$a", "🎉", by: "@bo:h.org", ts: 3000)])
        XCTAssertTrue(reactionUpdates(late).isEmpty, "a deleted comment takes none")
        XCTAssertFalse(line.reactions.hasReactions("$a"))
    }

    /// What an older page brings is read with the room, not a live change (no flash).
    func testAnOlderPagesReactionsAreReportedAsReadNotLive() {
        var line = timeline()
        let page = line.applyOlder([reaction("$r", to: "$old", "👍", by: "@bo:h.org", ts: 1001), message("$old", "@bo:h.org", "old", ts: 1000)],
                                   state: []).updates
        XCTAssertTrue(page.contains { if case .reactionsKnown("$old", let counts) = $0 { counts.count == 1 } else { false } },
                      "\(page)")
        XCTAssertFalse(page.contains { if case .reactionsChanged = $0 { true } else { false } })
    }
}
