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
        let mine = MatrixOwnReceipts.inPost("$root", among: events, me: "@ann:h.org")
        XCTAssertEqual(MatrixOwnReceipts.newest(mine, in: ["$r1", "$r2", "$r3"]), "$r3")
        XCTAssertEqual(MatrixOwnReceipts.newest(mine, in: ["$r3", "$r2", "$r1"]), "$r1")
        XCTAssertEqual(MatrixOwnReceipts.newest(mine, in: ["$r1"]), "$r1", "one the post's events hold wins")
        XCTAssertNil(MatrixOwnReceipts.newest([], in: ["$r1"]))
    }
}
