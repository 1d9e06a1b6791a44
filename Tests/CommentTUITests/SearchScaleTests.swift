import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// A thread file's comments through its index, counting the ones decoded; with `readsBytes`
/// it lets the search judge lines from their bytes, as the index itself does.
private final class CountingIndex: CommentStore {
    let index: ThreadIndex
    let readsBytes: Bool
    private(set) var reads = 0
    private(set) var positionsRead = Set<Int>()
    private(set) var bytesJudged = 0

    init(_ index: ThreadIndex, readsBytes: Bool = false) {
        self.index = index
        self.readsBytes = readsBytes
    }

    var commentCount: Int { index.commentCount }

    func comment(at position: Int) -> Result<Comment, ThreadFileProblem> {
        reads += 1
        positionsRead.insert(position)
        return index.comment(at: position)
    }

    func searchVerdicts(for pattern: SearchPattern, below end: Int, atMost count: Int, maxBytes: Int,
                        leavingUndecided ids: Set<String>) -> SearchVerdicts? {
        guard readsBytes else { return nil }
        let verdicts = index.verdictsFromLines(pattern, below: end, atMost: count, maxBytes: maxBytes, leavingUndecided: ids)
        bytesJudged += verdicts.bytes
        return verdicts
    }
}

/// Ctrl-S in a big thread (issue 22, item 4; issue 28, item 3): each key returns after a
/// bounded amount of work, the comments are read a slice per turn, a later key replaces the
/// scan under way, the match is the one a plain scan finds, Ctrl-C during a long search quits
/// at once; a thread file is judged from its bytes, so one key finds a match at the oldest of
/// its comments, decoding only lines that may match; the status bar counts the way.
final class SearchScaleTests: XCTestCase {
    private static let needle = "xyzzy plugh"
    private static let created = #""created":"2025-04-17T10:00:00Z""#

    /// 200,000 generated comments with `lines` put in at their positions (counted among the
    /// comments, from the oldest).
    private func bigThread(_ lines: [(position: Int, line: String)]) throws -> ThreadIndex {
        var split = Self.generatedLines
        let firstComment = try XCTUnwrap(split.firstIndex { $0.starts(with: Array(#"{"type":"comment""#.utf8)) })
        for (position, line) in lines.sorted(by: { $0.position < $1.position }) {
            split.insert(ArraySlice(line.utf8), at: firstComment + position)
        }
        let directory = try temporaryDirectory(self)
        let path = directory.appendingPathComponent("big.jsonl").path
        try Data(Array(split.joined(separator: [0x0A]))).write(to: URL(fileURLWithPath: path))
        return try ThreadIndex.open(path: path)
    }

    /// The generated thread's lines, made once for every test here.
    private static let generatedLines: [ArraySlice<UInt8>] = {
        var bytes: [UInt8] = []
        try! ThreadGenerator(comments: 200_000, users: 500, seed: 11).write { bytes += $0 }
        return bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    }()

    private func canonical(_ id: String, _ body: String) -> String {
        String(decoding: ThreadRecordEncoder().encode(.comment(Comment(id: id, author: "u7", created: ThreadFixture.start, body: body))).dropLast(),
               as: UTF8.self)
    }

    func testKeysReturnAtOnceAndTheScanGoesOnASliceATurn() throws {
        let index = try bigThread([(140_000, canonical("needle", "found it: the XYZZY Plugh door"))])
        // What a plain scan from the newest finds: the newest comment saying the needle.
        let expected = try XCTUnwrap((0..<index.commentCount).reversed().first { position in
            (try? index.comment(at: position).get().body.lowercased().contains(Self.needle)) == true
        })
        let store = CountingIndex(index)
        var fixture = ThreadFixture(title: "Big", users: index.users)
        fixture.store = store
        let pilot = fixture.pilot(columns: 60, rows: 20)
        let app = pilot.app
        pilot.press(.ctrl("s"))

        var turns = 0
        func key(_ character: Character) {
            let before = store.reads
            _ = app.update(.key(KeyPress(.character(character))), at: pilot.time)
            XCTAssertLessThanOrEqual(store.reads - before, 40, "a key reads no more than a screen's comments")
            XCTAssertEqual(app.searchScanned, 0, "a key starts a new scan (the one under way is dropped)")
        }
        func turn() {
            let before = store.reads
            pilot.advance(by: 1.0 / 60)
            turns += 1
            XCTAssertLessThanOrEqual(store.reads - before, FeedSearch.sliceComments + 40, "a turn reads a slice")
        }
        for character in "xyzzy plug" { key(character) }
        for _ in 0..<3 { turn() }
        XCTAssertEqual(app.searchScanned, 3 * FeedSearch.sliceComments, "still scanning: the needle is far")
        XCTAssertNotNil(app.nextDeadline, "the loop wakes for the next slice")
        key("h")
        var guardTurns = 0
        while app.searchMatch == nil, guardTurns < 200 { turn(); guardTurns += 1 }
        XCTAssertEqual(app.searchMatch, expected, "the match a plain scan finds")
        XCTAssertEqual(app.selectedCommentIndex, expected)
        XCTAssertGreaterThan(turns, 10, "the 60,000 comments were read over many turns")

        // A long search, then Ctrl-C: it quits at once, reading nothing more.
        for character in " not there" { key(character) }
        turn()
        let before = store.reads
        XCTAssertEqual(app.update(.key(.ctrl("c")), at: pilot.time), [.quit])
        XCTAssertLessThanOrEqual(store.reads - before, 40)
    }

    /// The only match is the oldest comment: the query's last key finds it in a few turns of
    /// the file's bytes, with the way counted in the status bar, decoding only what may match
    /// (lines of another shape); then a query three lines match, one written with escapes and
    /// one of another shape, is counted whole.
    func testOneKeyFindsTheOldestMatchFromTheFileBytesDecodingOnlyWhatMayMatch() throws {
        let spaced = #"{"type":"comment", "id":"spaced","author":"u7",\#(Self.created),"body":"a SECRET door, spaced"}"#
        let escaped = #"{"type":"comment","id":"escaped","author":"u7",\#(Self.created),"body":"the \u0053ecret d\u00f6or, escaped"}"#
        let odd = #"{"type":"comment", "id":"odd","author":"u7",\#(Self.created),"body":"nothing to see"}"#
        let index = try bigThread([(0, canonical("oldest", "found it: the XYZZY Plugh door")), (150_000, spaced),
                                   (160_000, escaped), (170_000, odd), (180_000, canonical("plain", "the secret door"))])
        let store = CountingIndex(index, readsBytes: true)
        var fixture = ThreadFixture(title: "Big", users: index.users)
        fixture.store = store
        let pilot = fixture.pilot(columns: 100, rows: 20)
        let app = pilot.app
        var status: String { pilot.lines.last! }
        pilot.press(.ctrl("s"))
        for character in Self.needle.dropLast() { _ = app.update(.key(KeyPress(.character(character))), at: pilot.time) }
        let readBefore = store.positionsRead
        pilot.type("h")
        var turns = 0
        var said: [String] = []
        while app.searchMatch == nil, turns < 100 {
            pilot.advance(by: 1.0 / 60)
            turns += 1
            said.append(status)
        }
        XCTAssertEqual(app.searchMatch, 0, "the oldest comment, in one key")
        XCTAssertLessThanOrEqual(turns, 15, "\(turns) turns for \(store.bytesJudged) bytes")
        let decoded = store.positionsRead.subtracting(readBefore).filter { $0 > 100 && $0 < index.commentCount - 100 }
        XCTAssertEqual(decoded, [150_000, 170_000], "away from the screens, only the lines of another shape were decoded")
        XCTAssertTrue(said.dropLast().allSatisfy { $0.contains("search \"xyzzy plugh\": searching… ") }, said.joined(separator: "\n"))
        XCTAssertEqual(Set(said.dropLast()).count, said.count - 1, "each turn says how far it got")
        XCTAssertTrue(said.contains { $0.hasSuffix(" of 200,005") }, said.joined(separator: "\n"))
        XCTAssertTrue(pilot.lines.contains { $0.contains("found it: the XYZZY Plugh door") }, "the match is on screen")
        while app.isSearchScanning, turns < 100 { pilot.advance(by: 1.0 / 60); turns += 1 }
        XCTAssertTrue(status.hasSuffix(#"search "xyzzy plugh": match 1 of 1 (Enter: older)"#), status)

        pilot.press(.ctrl("u"))
        _ = pilot.send(.paste("secret door"))
        while app.isSearchScanning, turns < 200 { pilot.advance(by: 1.0 / 60); turns += 1 }
        // From the oldest, where the last match was, past it to the newest.
        XCTAssertTrue(status.hasSuffix(#"search "secret door": match 3 of 3 · wrapped to the newest"#), status)
        XCTAssertEqual(app.searchMatch, 180_000)
        pilot.press(.enter)
        XCTAssertEqual(app.searchMatch, 160_000, "escaped: \\u0053 is S, \\u00f6 is ö")
        XCTAssertTrue(status.hasSuffix(#"match 2 of 3 (Enter: older)"#), status)
        pilot.press(.enter)
        XCTAssertEqual(app.searchMatch, 150_000, "another shape, decoded")
        XCTAssertTrue(status.hasSuffix(#"match 1 of 3 (Enter: older)"#), status)
        pilot.press(.enter)
        XCTAssertTrue(status.hasSuffix(#"match 3 of 3 · wrapped to the newest"#), status)
    }

    /// A miss at a million reads on without a stop to Enter past, saying how far it got each turn.
    func testAMissAtAMillionReadsOnAndTheBarCountsTheWay() {
        let store = CountingStore(count: 1_000_000)
        var fixture = ThreadFixture(title: "Big", users: [ThreadFixture.ann, ThreadFixture.bo])
        fixture.store = store
        let pilot = fixture.pilot(columns: 120, rows: 20)
        pilot.press(.ctrl("s"))
        pilot.type("absent")
        var said: [String] = []
        for _ in 0..<120 {
            pilot.advance(by: 1.0 / 60)
            said.append(pilot.lines.last!)
        }
        XCTAssertTrue(pilot.isSearchScanning, "no stop at 100,000 comments")
        XCTAssertTrue(said[0].hasSuffix(#"search "absent": searching… 1,000 of 1,000,000"#), said[0])
        XCTAssertTrue(said[119].hasSuffix(#"search "absent": searching… 120,000 of 1,000,000"#), said[119])
        XCTAssertEqual(Set(said).count, said.count, "every turn says how far it got")
    }

    /// A miss says how many comments it read; Enter reads them again, and the bar shows it.
    func testAMissSaysHowFarItGotAndEnterSearchesAgain() {
        let store = CountingStore(count: 5_000)
        var fixture = ThreadFixture(title: "Big", users: [ThreadFixture.ann, ThreadFixture.bo])
        fixture.store = store
        let pilot = fixture.pilot(columns: 120, rows: 20)
        pilot.press(.ctrl("s"))
        pilot.type("absent")
        for _ in 0..<5 { pilot.advance(by: 1.0 / 60) }
        XCTAssertTrue(pilot.lines.last!.hasSuffix(#"search "absent": no match in 5,000 comments"#), pilot.lines.last!)
        pilot.press(.enter)
        pilot.advance(by: 1.0 / 60)
        XCTAssertTrue(pilot.lines.last!.hasSuffix(#"search "absent": searching… 1,000 of 5,000"#), pilot.lines.last!)
        for _ in 0..<4 { pilot.advance(by: 1.0 / 60) }
        XCTAssertTrue(pilot.lines.last!.hasSuffix(#"search "absent": no match in 5,000 comments"#), pilot.lines.last!)
    }

    /// An edit keeps the file's bytes judging the rest: away from what the screen shows, no
    /// comment is decoded, and the edited ones are judged by their new text, not their lines.
    func testAnEditDecodesOnlyTheEditedComment() throws {
        let index = try bigThread([(0, canonical("oldest", "found it: the XYZZY Plugh door")), (100_000, canonical("edited", "nothing yet"))])
        let store = CountingIndex(index, readsBytes: true)
        var fixture = ThreadFixture(title: "Big", users: index.users)
        fixture.store = store
        let pilot = fixture.pilot(columns: 100, rows: 20)
        let app = pilot.app
        func edit(_ id: String, _ body: String) -> ThreadUpdate {
            .commentEdited(Comment(id: id, author: "u7", created: ThreadFixture.start, body: body))
        }
        app.receive([edit("oldest", "gone"), edit("edited", "now the xyzzy plugh door is here")])
        let readBefore = store.positionsRead
        pilot.press(.ctrl("s"))
        pilot.type(Self.needle)
        var turns = 0
        while app.isSearchScanning, turns < 400 { pilot.advance(by: 1.0 / 60); turns += 1 }
        XCTAssertEqual(app.searchMatch, 100_000)
        XCTAssertEqual(app.searchMatchCount, 1, "the oldest matches no more")
        // The edited comment's line says no: it was read with its edit over it.
        let decoded = store.positionsRead.subtracting(readBefore)
            .filter { $0 > 100 && $0 < index.commentCount - 100 && abs($0 - 100_000) > 100 }
        XCTAssertEqual(decoded.count, 0, "away from the screens, comments were decoded: \(decoded.count < 50 ? decoded.sorted() : [])")
    }
}
