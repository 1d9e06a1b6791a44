import XCTest
import ThreadModel
@testable import CommentTUI

/// With no per-post counts from the server, a post is unread by our receipts, compared by the
/// events' order (a receipt covers its event and all before it), never by clocks: a threaded
/// receipt covers its post, an unthreaded one every post, one in `main` none.
final class MatrixPostReceiptTests: XCTestCase {
    private func message(_ id: String, ts: Double, sender: String = "@bo:h.org", thread root: String? = nil,
                         bundle: JSONValue? = nil) -> JSONValue {
        var content: [String: JSONValue] = ["msgtype": "m.text", "body": .string("text of \(id)")]
        if let root { content["m.relates_to"] = ["rel_type": "m.thread", "event_id": .string(root)] }
        var event: [String: JSONValue] = ["type": "m.room.message", "event_id": .string(id), "sender": .string(sender),
                                          "origin_server_ts": .number(ts), "content": .object(content)]
        if let bundle { event["unsigned"] = ["m.relations": ["m.thread": bundle]] }
        return .object(event)
    }

    private func receipt(on event: String, ts: Double, thread: String?) -> JSONValue {
        var mine: [String: JSONValue] = ["ts": .number(ts)]
        if let thread { mine["thread_id"] = .string(thread) }
        return ["ephemeral": ["events": [["type": "m.receipt", "content": [event: ["m.read": ["@ann:h.org": .object(mine)]]]]]]]
    }

    private func unread(_ line: inout MatrixTimeline, after room: JSONValue) -> Bool? {
        for update in line.postsRead(in: room) {
            if case .postSummaryChanged("$root", let summary) = update { return summary?.isUnread }
        }
        return nil
    }

    func testReceiptsCoverByEventOrderNotClock() {
        var members = MatrixMembers(me: "@ann:h.org")
        members.update(["@ann:h.org": "Ann", "@bo:h.org": "Bo", "@cy:h.org": "Cy"])
        var line = MatrixTimeline(members: members)
        let latest = message("$r2", ts: 3000, sender: "@cy:h.org", thread: "$root")
        _ = line.applyNewer([message("$root", ts: 1000, bundle: ["count": 2, "latest_event": latest])])
        // Our receipt on the newest reply, its clock behind the reply's server: read.
        XCTAssertEqual(unread(&line, after: receipt(on: "$r2", ts: 500, thread: "$root")), false)
        _ = line.applyNewer([message("$r3", ts: 4000, thread: "$root")])
        XCTAssertEqual(unread(&line, after: receipt(on: "$r1", ts: 9000, thread: "$root")), true,
                       "a receipt on an earlier reply, however late its clock")
        _ = line.applyNewer([message("$main", ts: 5000)])
        XCTAssertEqual(unread(&line, after: receipt(on: "$main", ts: 100, thread: "main")), nil, "main covers no post")
        XCTAssertEqual(unread(&line, after: receipt(on: "$main", ts: 100, thread: nil)), false,
                       "an unthreaded receipt after the newest reply covers the post")
    }
}
