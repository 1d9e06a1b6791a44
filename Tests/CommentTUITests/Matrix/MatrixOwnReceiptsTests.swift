import XCTest
@testable import CommentTUI
import ThreadModel

/// Our receipts in a post read from `m.receipt` events: only ours, only with the post's
/// `thread_id`, hostile ids left out; the later of a public and a private one by the post's order.
final class MatrixOwnReceiptsTests: XCTestCase {
    private func receipts(_ content: JSONValue) -> [JSONValue] { [["type": "m.receipt", "content": content]] }

    func testOnlyOurReceiptInThePostCounts() {
        let events = receipts([
            "$r1": ["m.read": ["@ann:h.org": ["ts": 1, "thread_id": "$root"], "@bo:h.org": ["ts": 1, "thread_id": "$root"]]],
            "$r2": ["m.read": ["@bo:h.org": ["ts": 2, "thread_id": "$root"]]],
            "$m": ["m.read": ["@ann:h.org": ["ts": 3, "thread_id": "main"]]],
            "$u": ["m.read": ["@ann:h.org": ["ts": 4]]],
            "$other": ["m.read.private": ["@ann:h.org": ["ts": 5, "thread_id": "$another"]]],
            "not-an-event": ["m.read": ["@ann:h.org": ["ts": 6, "thread_id": "$root"]]],
            "$typed": ["m.read": ["@ann:h.org": ["ts": 7, "thread_id": 5]]],
        ])
        XCTAssertEqual(MatrixOwnReceipts.inPost("$root", among: events, me: "@ann:h.org"), ["$r1"])
        XCTAssertEqual(MatrixOwnReceipts.inPost("$root", among: [["type": "m.typing", "content": ["$r1": ["m.read": ["@ann:h.org": ["thread_id": "$root"]]]]]],
                                                me: "@ann:h.org"), [])
    }

    func testTheLaterOfAPublicAndAPrivateReceiptIsOurs() {
        let events = receipts([
            "$r1": ["m.read.private": ["@ann:h.org": ["ts": 1, "thread_id": "$root"]]],
            "$r3": ["m.read": ["@ann:h.org": ["ts": 1, "thread_id": "$root"]]],
        ])
        let mine = MatrixOwnReceipts.receipts(inPost: "$root", among: events, me: "@ann:h.org")
        XCTAssertEqual(MatrixOwnReceipts.newest(mine, in: ["$r1", "$r2", "$r3"], root: "$root")?.eventID, "$r3")
        XCTAssertEqual(MatrixOwnReceipts.newest(mine, in: ["$r3", "$r2", "$r1"], root: "$root")?.eventID, "$r1")
        XCTAssertEqual(MatrixOwnReceipts.newest(mine, in: ["$r1"], root: "$root")?.eventID, "$r1", "one the post's events hold wins")
        XCTAssertNil(MatrixOwnReceipts.newest([], in: ["$r1"], root: "$root"))
    }

    /// Two receipts the post's events do not hold: the later sent wins, not the larger id; one on
    /// the root (nothing read) loses to any other.
    func testReceiptsOutsideThePostsEventsGoByTheirTimeAndTheRootLast() {
        let events = receipts([
            "$z": ["m.read": ["@ann:h.org": ["ts": 100, "thread_id": "$root"]]],
            "$a": ["m.read.private": ["@ann:h.org": ["ts": 200, "thread_id": "$root"]]],
            "$root": ["m.read.private": ["@ann:h.org": ["ts": 300, "thread_id": "$root"]]],
        ])
        let mine = MatrixOwnReceipts.receipts(inPost: "$root", among: events, me: "@ann:h.org")
        XCTAssertEqual(mine.map(\.ts), [200, 300, 100])
        XCTAssertEqual(MatrixOwnReceipts.newest(mine, in: ["$r1"], root: "$root")?.eventID, "$a")
        XCTAssertEqual(MatrixOwnReceipts.newest(mine.filter { $0.eventID != "$a" }, in: [], root: "$root")?.eventID, "$z")
    }

    /// A receipt on an event the page does not hold (a reaction, an edit) stands after the reply
    /// it relates to and every reply sent before it; without the event, by the receipt's time.
    func testAReceiptOnARelatedEventStandsAfterWhatWasSentBeforeIt() {
        let page: [JSONValue] = (1...4).map { ["event_id": .string("$r\($0)"), "origin_server_ts": .number(Double($0) * 1000)] }
        let receipt = MatrixOwnReceipts.Receipt(eventID: "$x", ts: 9000)
        func reaction(to target: String, at ts: Double) -> JSONValue {
            ["event_id": "$x", "origin_server_ts": .number(ts), "content": ["m.relates_to": ["rel_type": "m.annotation", "event_id": .string(target)]]]
        }
        XCTAssertEqual(MatrixPostReceiptPlace(receipt, event: reaction(to: "$r2", at: 3500), root: "$root", page: page), .after(2))
        XCTAssertEqual(MatrixPostReceiptPlace(receipt, event: reaction(to: "$r3", at: 500), root: "$root", page: page), .after(2),
                       "after its reply at least, a clock behind or not")
        XCTAssertEqual(MatrixPostReceiptPlace(receipt, event: nil, root: "$root", page: page), .after(3), "by the receipt's own time")
        XCTAssertEqual(MatrixPostReceiptPlace(receipt, event: reaction(to: "$old", at: 500), root: "$root", page: page),
                       .older(ts: 500, eventID: "$old"))
        XCTAssertEqual(MatrixPostReceiptPlace(receipt, event: reaction(to: "$root", at: 500), root: "$root", page: page), .root)
        XCTAssertEqual(MatrixPostReceiptPlace(.init(eventID: "$r3", ts: 0), event: nil, root: "$root", page: page), .after(2))
        // A bundled edit the page holds beside its reply (index 1), sent after reply 3.
        let edited = [page[0], ["event_id": "$e", "origin_server_ts": 3500, "content": ["m.relates_to": ["rel_type": "m.replace", "event_id": "$r1"]]]]
            + page[1...]
        XCTAssertEqual(MatrixPostReceiptPlace(.init(eventID: "$e", ts: 0), event: nil, root: "$root", page: edited), .after(3))
        XCTAssertLessThan(MatrixPostReceiptPlace.root, .older(ts: 0, eventID: "$a"))
        XCTAssertLessThan(MatrixPostReceiptPlace.older(ts: 9e12, eventID: "$a"), .after(0))
    }
}
