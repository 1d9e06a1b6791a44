import Foundation
import XCTest
import ThreadModel
@testable import CommentTUI

/// `export` writes a room's reactions in one order whatever the events' ids: by time, then the
/// comment's place, key, sender and event id; keys a file could not hold are left out.
final class MatrixReactionExportOrderTests: XCTestCase {
    private let at = Date(timeIntervalSince1970: 1_700_000_000)

    private func reaction(_ event: String, on target: String, _ key: String, by sender: String, at: Date? = nil) -> (eventID: String, reaction: MatrixReactions.Reaction) {
        (event, MatrixReactions.Reaction(target: target, key: key, sender: sender, at: at ?? self.at))
    }

    func testTiesInTimeFollowTheCommentsPlaceThenKeyThenSenderNotTheEventIDs() {
        let comments = [(event: "$first", id: "c1"), (event: "$second", id: "c2")]
        let found = [
            reaction("$a", on: "$second", "👍", by: "@bo:x"),
            reaction("$b", on: "$first", "🎉", by: "@bo:x"),
            reaction("$c", on: "$first", "👍", by: "@cy:x"),
            reaction("$d", on: "$first", "👍", by: "@ann:x"),
            reaction("$e", on: "$second", "👀", by: "@ann:x", at: at.addingTimeInterval(-1)),
        ]
        let expected = ["c2 👀 @ann:x", "c1 🎉 @bo:x", "c1 👍 @ann:x", "c1 👍 @cy:x", "c2 👍 @bo:x"]  // keys by UTF-8: 🎉 (F0 9F 8E) before 👍 (F0 9F 91)
        for order in [found, found.reversed(), found.shuffled()] {
            let written = MatrixReactions.exportOrder(order, comments: comments).map { "\($0.comment) \($0.key) \($0.author)" }
            XCTAssertEqual(written, expected)
        }
    }

    func testKeysAFileCannotHoldAreLeftOut() {
        let found = [reaction("$a", on: "$first", "👍", by: "@bo:x"), reaction("$b", on: "$first", "bad\nkey", by: "@bo:x"),
                     reaction("$c", on: "$first", "\u{202E}kcab", by: "@bo:x")]
        XCTAssertEqual(MatrixReactions.exportOrder(found, comments: [(event: "$first", id: "c1")]).map(\.key), ["👍"])
    }
}
