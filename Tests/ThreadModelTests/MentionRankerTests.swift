import Foundation
@testable import ThreadModel
import XCTest

final class MentionRankerTests: XCTestCase {
    private func user(_ handle: String, _ name: String) -> User {
        User(id: "id-" + handle, handle: handle, name: name)
    }

    private func handles(_ results: MentionResults) -> [String] { results.matches.map(\.user.handle) }

    func testPrefixTiersBeforeFuzzyAndHandlePrefixBeforeNamePrefix() {
        let ranker = MentionRanker(
            users: [
                user("amar", "Amar Singh"),   // "mar" only as a subsequence of the handle
                user("bob", "Bob Marley"),    // "mar" starts the second word of the name
                user("xyz", "Mia Arlo Roe"),  // "mar" only as a subsequence of the name
                user("marta", "Marta Ruiz"),  // "mar" starts the handle
                user("zed", "Zed"),
            ],
            // The most recent participants are the fuzzy ones: tiers still come first.
            recency: ["id-amar": 10, "id-xyz": 9]
        )
        let results = ranker.rank("mar", limit: 10)
        XCTAssertEqual(handles(results), ["marta", "bob", "amar", "xyz"])
        XCTAssertEqual(results.matches.map(\.kind), [.handlePrefix, .namePrefix, .fuzzy, .fuzzy])
        XCTAssertEqual(results.total, 4)
        XCTAssertEqual(results.matches[0].handleHighlights, [0..<3])
        XCTAssertEqual(results.matches[1].nameHighlights, [4..<7])
        XCTAssertEqual(results.matches[2].handleHighlights, [1..<4])
        XCTAssertEqual(results.matches[3].nameHighlights, [0..<1, 2..<3, 5..<6])
    }

    func testRecencyOutranksHandleVersusNamePrefixWithinTier() {
        let ranker = MentionRanker(users: [user("marta", "Marta Ruiz"), user("bob", "Bob Marley")], recency: ["id-bob": 3])
        XCTAssertEqual(handles(ranker.rank("mar", limit: 10)), ["bob", "marta"])
    }

    func testCaseInsensitive() {
        let ranker = MentionRanker(users: [user("MaryJ", "Mary Jones"), user("kim", "KIM PARK")])
        let upper = ranker.rank("MARY", limit: 5)
        XCTAssertEqual(handles(upper), ["MaryJ"])
        XCTAssertEqual(upper.matches.first?.kind, .handlePrefix)
        XCTAssertEqual(ranker.rank("park", limit: 5).matches.map(\.kind), [.namePrefix])
        XCTAssertEqual(handles(ranker.rank("Park", limit: 5)), ["kim"])
    }

    func testDiacriticInsensitiveBothWays() {
        let decomposed = "Jose\u{301} Álvarez"  // é as e + combining acute: one more scalar
        let ranker = MentionRanker(users: [
            user("jalvarez", "José Álvarez"),
            user("zoë", "Zoë Smith"),
            user("jose2", decomposed),
            user("plain", "Jose Plain"),
        ])
        let jose = ranker.rank("jose", limit: 5)
        XCTAssertEqual(handles(jose), ["jose2", "jalvarez", "plain"])
        XCTAssertEqual(jose.matches.map(\.kind), [.handlePrefix, .namePrefix, .namePrefix])
        XCTAssertEqual(jose.matches[1].nameHighlights, [0..<4])
        XCTAssertEqual(handles(ranker.rank("alv", limit: 5)), ["jalvarez", "jose2"])
        XCTAssertEqual(ranker.rank("alv", limit: 5).matches[1].nameHighlights, [6..<9])
        XCTAssertEqual(ranker.rank("jose ", limit: 5).matches.first { $0.user.handle == "jose2" }?.nameHighlights, [0..<6])

        let zoe = ranker.rank("ZOE", limit: 5)
        XCTAssertEqual(handles(zoe), ["zoë"])
        XCTAssertEqual(zoe.matches[0].kind, .handlePrefix)
        XCTAssertEqual(zoe.matches[0].handleHighlights, [0..<3])
        // A query with a diacritic finds the plain spelling too.
        XCTAssertEqual(Set(handles(ranker.rank("JOSÉ P", limit: 5))), ["plain"])
    }

    func testNamesWithSpacesAndPunctuation() {
        let ranker = MentionRanker(users: [
            user("alopez", "Ana María López"),
            user("picard", "Jean-Luc Picard"),
            user("obrien", "Miles O'Brien"),
            user("s3", "sam_the.snake"),
            user("acd", "Anne·Claire Dupont"),  // a middle dot (non-ASCII punctuation) splits words too
        ])
        let maria = ranker.rank("mar", limit: 5)
        XCTAssertEqual(handles(maria), ["alopez"])
        XCTAssertEqual(maria.matches[0].kind, .namePrefix)
        XCTAssertEqual(maria.matches[0].nameHighlights, [4..<7])
        // A query may run on from one word into the next.
        XCTAssertEqual(ranker.rank("maria lo", limit: 5).matches.map(\.kind), [.namePrefix])
        XCTAssertEqual(ranker.rank("ria", limit: 5).matches.map(\.kind), [.fuzzy])
        XCTAssertEqual(ranker.rank("luc", limit: 5).matches.map(\.kind), [.namePrefix])
        XCTAssertEqual(ranker.rank("jean luc", limit: 5).matches.map(\.kind), [.namePrefix])
        XCTAssertEqual(ranker.rank("brien", limit: 5).matches.map(\.user.handle), ["obrien"])
        XCTAssertEqual(ranker.rank("brien", limit: 5).matches.map(\.kind), [.namePrefix])
        XCTAssertEqual(ranker.rank("the", limit: 5).matches.map(\.kind), [.namePrefix])
        XCTAssertEqual(ranker.rank("claire", limit: 5).matches.map(\.kind), [.namePrefix])
        XCTAssertEqual(ranker.rank("sna", limit: 5).matches.map(\.kind), [.namePrefix])
    }

    func testEmojiInNames() {
        let ranker = MentionRanker(users: [
            user("devops", "Dev 🚀 Ops"),
            user("coder", "👩‍💻 Coder"),
            user("heart", "Ava ❤️"),
            user("plain", "Plain Person"),
        ])
        let rocket = ranker.rank("🚀", limit: 5)
        XCTAssertEqual(handles(rocket), ["devops"])
        XCTAssertEqual(rocket.matches[0].kind, .namePrefix)
        XCTAssertEqual(rocket.matches[0].nameHighlights, [4..<5])
        let coder = ranker.rank("👩‍💻", limit: 5)
        XCTAssertEqual(handles(coder), ["coder"])
        XCTAssertEqual(coder.matches[0].nameHighlights, [0..<3])
        XCTAssertEqual(handles(ranker.rank("❤️", limit: 5)), ["heart"])
        XCTAssertEqual(ranker.rank("d🚀", limit: 5).matches.map(\.kind), [.fuzzy])
        XCTAssertEqual(ranker.rank("🚀 op", limit: 5).matches.map(\.kind), [.namePrefix])
    }

    func testExactHandleThenRecencyThenCaseInsensitiveHandle() {
        let ranker = MentionRanker(
            users: [user("sam", "S"), user("samuel", "S"), user("samantha", "S"), user("sam_a", "S"), user("SAM_b", "S")],
            recency: ["id-samantha": 5, "id-samuel": 2]
        )
        XCTAssertEqual(handles(ranker.rank("sam", limit: 10)), ["sam", "samantha", "samuel", "sam_a", "SAM_b"])
        XCTAssertEqual(handles(ranker.rank("sa", limit: 10)), ["samantha", "samuel", "sam", "sam_a", "SAM_b"])
        XCTAssertEqual(handles(ranker.rank("SAMUEL", limit: 10)), ["samuel"])
    }

    func testEmptyQueryMatchesEveryoneByRecencyThenHandle() {
        let ranker = MentionRanker(
            users: [user("carol", "C"), user("alice", "A"), user("Bob", "B"), user("dave", "D")],
            recency: ["id-dave": 1, "id-carol": 7]
        )
        let all = ranker.rank("", limit: 10)
        XCTAssertEqual(handles(all), ["carol", "dave", "alice", "Bob"])
        XCTAssertEqual(all.total, 4)
        let two = ranker.rank("", limit: 2)
        XCTAssertEqual(handles(two), ["carol", "dave"])
        XCTAssertEqual(two.total, 4)
    }

    func testLimitKeepsTheBestAndTotalCountsAll() {
        let users = (0..<30).reversed().map { user(String(format: "user%02d", $0), "U") }
        let ranker = MentionRanker(users: users, recency: ["id-user17": 1])
        let five = ranker.rank("user", limit: 5)
        XCTAssertEqual(handles(five), ["user17", "user00", "user01", "user02", "user03"])
        XCTAssertEqual(five.total, 30)
        let none = ranker.rank("user", limit: 0)
        XCTAssertEqual(none.matches, [])
        XCTAssertEqual(none.total, 30)
    }

    func testBoundedSelectionAgreesWithFullRanking() {
        var state: UInt64 = 42
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        let letters = Array("abcdemnorst")
        let users = (0..<500).map { i in
            let handle = String((0..<(3 + next(5))).map { _ in letters[next(letters.count)] }) + "\(i)"
            let name = String((0..<(4 + next(8))).map { _ in next(5) == 0 ? " " : letters[next(letters.count)] })
            return User(id: "u\(i)", handle: handle, name: name)
        }
        // Few distinct values, so recency ties fall through to the handle.
        let recency = Dictionary((0..<150).map { _ in ("u\(next(500))", next(20)) }, uniquingKeysWith: max)
        let ranker = MentionRanker(users: users, recency: recency)
        for query in ["", "a", "ma", "st", "ao", "e n", "m1", "zz"] {
            let full = ranker.rank(query, limit: users.count)
            let top = ranker.rank(query, limit: 7)
            XCTAssertEqual(top.matches, Array(full.matches.prefix(7)), query)
            XCTAssertEqual(top.total, full.total, query)
            XCTAssertEqual(full.matches.count, full.total, query)
        }
    }

    func testNoMatch() {
        let ranker = MentionRanker(users: [user("alice", "Alice Smith"), user("bob", "Bob")])
        XCTAssertEqual(ranker.rank("qx", limit: 5), MentionResults(matches: [], total: 0))
        XCTAssertEqual(ranker.rank("alicesmithx", limit: 5), MentionResults(matches: [], total: 0))
        XCTAssertEqual(MentionRanker(users: []).rank("a", limit: 5), MentionResults(matches: [], total: 0))
    }

    func testRecencyFromCommentsAndThread() {
        let date = Date(timeIntervalSince1970: 0)
        let comments = [
            Comment(id: "c1", author: "a", created: date, body: "x"),
            Comment(id: "c2", author: "b", created: date, body: "x"),
            Comment(id: "c3", author: "a", created: date, body: "x"),
        ]
        XCTAssertEqual(MentionRanker.recency(of: comments), ["a": 2, "b": 1])
        let thread = CommentThread(
            id: "t", title: "T", author: "op", created: date, body: "",
            users: [User(id: "a", handle: "ann", name: "Ann"), User(id: "b", handle: "ben", name: "Ben"),
                    User(id: "c", handle: "cat", name: "Cat"), User(id: "op", handle: "oprah", name: "Op")],
            comments: comments
        )
        XCTAssertEqual(handles(MentionRanker(thread: thread).rank("", limit: 10)), ["ann", "ben", "oprah", "cat"])
    }
}
