import XCTest
import ThreadModel
@testable import CommentTUI

/// A post's reply count tells replies apart by event id, not time: older replies arriving later
/// (a gap filled, a server's clock behind) count, a post whose count may be off is read again,
/// and hostile root ids and floods of counts stay bounded.
final class MatrixPostCountOrderTests: XCTestCase {
    private func message(_ id: String, ts: Double, thread root: String? = nil, bundle: JSONValue? = nil) -> JSONValue {
        var content: [String: JSONValue] = ["msgtype": "m.text", "body": .string("text of \(id)")]
        if let root { content["m.relates_to"] = ["rel_type": "m.thread", "event_id": .string(root), "is_falling_back": true] }
        var event: [String: JSONValue] = ["type": "m.room.message", "event_id": .string(id), "sender": "@bo:h.org",
                                          "origin_server_ts": .number(ts), "content": .object(content)]
        if let bundle { event["unsigned"] = ["m.relations": ["m.thread": bundle]] }
        return .object(event)
    }

    private func root(count: Double, latest: String, at: Double) -> JSONValue {
        message("$root", ts: 1000, bundle: ["count": .number(count), "latest_event": message(latest, ts: at, thread: "$root")])
    }

    private func timeline() -> MatrixTimeline {
        var members = MatrixMembers(me: "@ann:h.org")
        members.update(["@ann:h.org": "Ann", "@bo:h.org": "Bo"])
        return MatrixTimeline(members: members)
    }

    private func count(_ line: MatrixTimeline, _ root: String = "$root") -> Int? {
        line.threadSummaries.entries[root]?.count
    }

    /// A limited sync brings the newest reply; the gap filled after it brings older ones: each counts.
    func testOlderRepliesArrivingAfterANewerOneCount() {
        var line = timeline()
        _ = line.applyNewer([root(count: 103, latest: "$r103", at: 103_000)])
        _ = line.applyNewer([message("$r304", ts: 304_000, thread: "$root")])
        XCTAssertEqual(count(line), 104)
        let gap = (104...303).map { message("$r\($0)", ts: Double($0) * 1000, thread: "$root") }
        _ = line.applyNewer(gap)
        XCTAssertEqual(count(line), 304, "the gap's replies count though older than the newest")
        XCTAssertEqual(line.threadSummaries.entries["$root"]?.latestEventID, "$r304", "the newest stays the newest")
        XCTAssertEqual(line.threadSummaries.stale, ["$root"], "a bundle read earlier may have held them: read again")
        // The root read again: its bundle is the count (here the server's says some were
        // counted twice), though its newest reply is no newer.
        XCTAssertFalse(line.rereadPost(root(count: 300, latest: "$r304", at: 304_000)).isEmpty)
        XCTAssertEqual(count(line), 300)
        XCTAssertTrue(line.threadSummaries.stale.isEmpty)
        // Older replies arriving after it (the rest of the gap) are in that count already; newer ones are not.
        _ = line.applyNewer([message("$r100", ts: 100_000, thread: "$root")])
        XCTAssertEqual(count(line), 300)
        XCTAssertTrue(line.threadSummaries.stale.isEmpty)
        _ = line.applyNewer([message("$r305", ts: 305_000, thread: "$root")])
        XCTAssertEqual(count(line), 301)
    }

    /// The replies in the same batch as their root, up to the bundle's newest, are in its count;
    /// the same reply twice counts once; a later batch's older reply counts.
    func testRepliesInTheBundlesBatchAreNotCountedTwice() {
        var line = timeline()
        _ = line.applyNewer([root(count: 2, latest: "$r2", at: 3000), message("$r1", ts: 2000, thread: "$root"),
                             message("$r2", ts: 3000, thread: "$root"), message("$r3", ts: 4000, thread: "$root")])
        XCTAssertEqual(count(line), 3)
        XCTAssertTrue(line.threadSummaries.stale.isEmpty)
        _ = line.applyNewer([message("$late", ts: 2500, thread: "$root")])
        XCTAssertEqual(count(line), 4, "a server's clock behind")
        var summaries = MatrixThreadSummaries()
        XCTAssertTrue(summaries.replyArrived(root: "$p", eventID: "$a", sender: "@bo:h.org", at: Date(timeIntervalSince1970: 5)))
        XCTAssertTrue(summaries.replyArrived(root: "$p", eventID: "$b", sender: "@bo:h.org", at: Date(timeIntervalSince1970: 4)))
        XCTAssertFalse(summaries.replyArrived(root: "$p", eventID: "$b", sender: "@bo:h.org", at: Date(timeIntervalSince1970: 4)))
        XCTAssertEqual(summaries.entries["$p"]?.count, 2)
    }

    /// A root id that is no event id, or too long, is no post; a sync naming millions of posts keeps a bound.
    func testHostileRootIDsAndCountFloodsAreBounded() {
        var summaries = MatrixThreadSummaries()
        let long = "$" + String(repeating: "x", count: 300)
        for bad in ["nope", long, ""] {
            XCTAssertFalse(summaries.replyArrived(root: bad, eventID: "$e\(bad.count)", sender: "@bo:h.org", at: Date()))
            XCTAssertFalse(summaries.readReceipt(root: bad, eventID: "$e"))
        }
        XCTAssertTrue(summaries.entries.isEmpty)
        var flood: [String: JSONValue] = [long: ["notification_count": 1]]
        for n in 0..<5000 { flood["$p\(n)"] = ["notification_count": 1] }
        _ = summaries.countsArrived(.object(flood))
        XCTAssertEqual(summaries.counts?.count, MatrixThreadSummaries.mostCounted)
        XCTAssertNil(summaries.counts?[long])
    }

    /// Past the bound of replies remembered, the oldest are forgotten and a new one's redaction still counts.
    func testRedactionsStillCountAfterManyReplies() {
        var summaries = MatrixThreadSummaries()
        let replies = MatrixThreadSummaries.mostCountedReplies + 50
        for n in 0..<replies {
            _ = summaries.replyArrived(root: "$p", eventID: "$r\(n)", sender: "@bo:h.org", at: Date(timeIntervalSince1970: Double(n)))
        }
        XCTAssertEqual(summaries.entries["$p"]?.count, replies)
        XCTAssertEqual(summaries.replyRedacted("$r\(replies - 1)"), "$p")
        XCTAssertEqual(summaries.entries["$p"]?.count, replies - 1)
    }
}
