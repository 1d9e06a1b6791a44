import XCTest
import ThreadModel
@testable import CommentTUI

/// How reactions count: each sender once per key, most people first, a removed one gone, and
/// what a hostile room can make them cost bounded.
final class MatrixReactionsTests: XCTestCase {
    private let at = Date(timeIntervalSince1970: 1_800_000_000)

    private func reaction(_ key: String, by sender: String, on target: String = "$c", after seconds: Double = 0) -> MatrixReactions.Reaction {
        MatrixReactions.Reaction(target: target, key: key, sender: sender, at: at.addingTimeInterval(seconds))
    }

    func testEachSenderCountsOncePerKeyMostPeopleFirstThenTheEarliestKey() {
        var reactions = MatrixReactions()
        XCTAssertTrue(reactions.add(eventID: "$1", reaction("🎉", by: "@bo", after: 1)))
        XCTAssertTrue(reactions.add(eventID: "$2", reaction("👍", by: "@bo", after: 2)))
        XCTAssertTrue(reactions.add(eventID: "$3", reaction("👍", by: "@me", after: 3)))
        XCTAssertTrue(reactions.add(eventID: "$4", reaction("👍", by: "@me", after: 4)), "a second by the same sender")
        XCTAssertTrue(reactions.add(eventID: "$5", reaction("👀", by: "@cy", after: 0.5)))
        XCTAssertFalse(reactions.add(eventID: "$5", reaction("👀", by: "@cy", after: 0.5)), "met again")
        XCTAssertEqual(reactions.counts(of: "$c", me: "@me"), [
            ReactionCount(key: "👍", count: 2, includesMine: true),
            ReactionCount(key: "👀", count: 1, includesMine: false),
            ReactionCount(key: "🎉", count: 1, includesMine: false),
        ])
        XCTAssertEqual(reactions.remove(eventID: "$2"), "$c")
        XCTAssertNil(reactions.remove(eventID: "$2"))
        XCTAssertEqual(reactions.counts(of: "$c", me: "@me"), [
            ReactionCount(key: "👀", count: 1, includesMine: false),
            ReactionCount(key: "🎉", count: 1, includesMine: false),
            ReactionCount(key: "👍", count: 1, includesMine: true),
        ], "one each now: the key reacted with first leads")
    }

    func testAnEmptyOrHugeKeyAndAStormPastTheBoundAreNotKept() {
        var reactions = MatrixReactions()
        XCTAssertFalse(reactions.add(eventID: "$e", reaction("", by: "@bo")))
        XCTAssertFalse(reactions.add(eventID: "$h", reaction(String(repeating: "x", count: MatrixReactions.longestKey + 1), by: "@bo")))
        for n in 0..<MatrixReactions.mostPerEvent {
            XCTAssertTrue(reactions.add(eventID: "$\(n)", reaction("k\(n)", by: "@s\(n / MatrixReactions.mostPerSender)")))
        }
        XCTAssertFalse(reactions.add(eventID: "$past", reaction("one more", by: "@new")))
        XCTAssertEqual(reactions.counts(of: "$c", me: "@me").count, MatrixReactions.mostPerEvent)
        XCTAssertTrue(reactions.add(eventID: "$other", reaction("👍", by: "@bo", on: "$d")), "another comment has its own bound")
    }

    /// One sender cannot fill a comment's bound: they keep a few keys, others still count, and
    /// the reader's own reaction is always kept (so it shows, and can be taken back).
    func testOneSendersStormIsBoundedPerSenderAndOursIsAlwaysKept() {
        var reactions = MatrixReactions(me: "@me")
        for n in 0..<MatrixReactions.mostPerEvent { _ = reactions.add(eventID: "$\(n)", reaction("k\(n)", by: "@hostile")) }
        XCTAssertEqual(reactions.counts(of: "$c", me: "@me").count, MatrixReactions.mostPerSender, "one sender's bound")
        XCTAssertTrue(reactions.add(eventID: "$bo", reaction("👍", by: "@bo")), "others still count")
        XCTAssertTrue(reactions.add(eventID: "$mine", reaction("👍", by: "@me")))
        XCTAssertEqual(reactions.event(target: "$c", key: "👍", sender: "@me"), "$mine", "ours can be taken back")
        XCTAssertEqual(reactions.remove(eventID: "$0"), "$c")
        XCTAssertTrue(reactions.add(eventID: "$again", reaction("again", by: "@hostile")), "a redaction frees the sender's room")

        var full = MatrixReactions(me: "@me")
        for n in 0..<MatrixReactions.mostPerEvent { _ = full.add(eventID: "$\(n)", reaction("k", by: "@s\(n)")) }
        XCTAssertFalse(full.add(eventID: "$late", reaction("k", by: "@late")), "the event's bound")
        XCTAssertTrue(full.add(eventID: "$mine", reaction("🎉", by: "@me")), "ours past the event's bound too")
        XCTAssertTrue(full.counts(of: "$c", me: "@me").contains { $0.key == "🎉" && $0.includesMine })
    }
}
