import Foundation
@testable import ThreadModel
import XCTest

/// The compact index under `MentionRanker`: UTF-8 keys compared scalar by scalar, users excluded
/// from the start, recency taken in place.
final class MentionRankerIndexTests: XCTestCase {
    private func user(_ handle: String, _ name: String) -> User {
        User(id: "id-" + handle, handle: handle, name: name)
    }

    private func handles(_ results: MentionResults) -> [String] { results.matches.map(\.user.handle) }

    /// 旬 is E6 97 AC in UTF-8, and 日本 is E6 97 A5 E6 9C AC: its bytes are there in order, the
    /// scalar is not.
    func testASubsequenceMatchesWholeScalarsNotBytesOfOthers() {
        let ranker = MentionRanker(users: [user("nihon", "日本"), user("shun", "旬 Season")])
        XCTAssertEqual(handles(ranker.rank("旬", limit: 5)), ["shun"])
        XCTAssertEqual(ranker.rank("旬", limit: 5).matches.map(\.kind), [.namePrefix])
        let hon = ranker.rank("本", limit: 5)
        XCTAssertEqual(handles(hon), ["nihon"])
        XCTAssertEqual(hon.matches.map(\.kind), [.fuzzy])
        XCTAssertEqual(hon.matches[0].nameHighlights, [1..<2])
        XCTAssertEqual(ranker.rank("日本", limit: 5).matches.map(\.kind), [.namePrefix])
    }

    func testExcludedUsersAreNeverOfferedNorCounted() {
        let users = [user("ann", "Ann"), user("anna", "Anna"), user("bo", "Bo Anders")]
        let ranker = MentionRanker(users: users, recency: ["id-anna": 3], excluding: ["id-anna"])
        XCTAssertEqual(handles(ranker.rank("an", limit: 5)), ["ann", "bo"])
        XCTAssertEqual(ranker.rank("an", limit: 5).total, 2)
        XCTAssertEqual(handles(ranker.rank("", limit: 5)), ["ann", "bo"])
        XCTAssertEqual(ranker.rank("", limit: 5).total, 2)
        XCTAssertEqual(ranker.users, users, "the users as given, the excluded among them")
    }

    func testRecencyInPlaceRanksAsAFreshIndex() {
        let letters = Array("abmnorst")
        var state: UInt64 = 7
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        // Ids out of order, so recency finds users through the index by id.
        let users = (0..<300).map { i in
            User(id: "u\((i * 7919) % 300)", handle: String((0..<(2 + next(4))).map { _ in letters[next(letters.count)] }) + "\(i)",
                 name: String((0..<(3 + next(6))).map { _ in next(4) == 0 ? " " : letters[next(letters.count)] }))
        }
        let first = Dictionary((0..<80).map { _ in ("u\(next(300))", next(15)) }, uniquingKeysWith: max)
        let second = Dictionary((0..<40).map { _ in ("u\(next(300))", next(9)) }, uniquingKeysWith: max)
        var updated = MentionRanker(users: users, recency: first)
        updated.setRecency(second)
        let fresh = MentionRanker(users: users, recency: second)
        for query in ["", "a", "mo", "s t", "r1", "zz"] {
            XCTAssertEqual(updated.rank(query, limit: 300), fresh.rank(query, limit: 300), query)
            XCTAssertEqual(MentionRanker(users: users, recency: first).withRecency(second).rank(query, limit: 12),
                           fresh.rank(query, limit: 12), query)
        }
    }
}
