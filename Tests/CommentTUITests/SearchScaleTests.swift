import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// A thread file's comments through its index, counting the ones read.
private final class CountingIndex: CommentStore {
    let index: ThreadIndex
    private(set) var reads = 0

    init(_ index: ThreadIndex) { self.index = index }

    var commentCount: Int { index.commentCount }

    func comment(at position: Int) -> Result<Comment, ThreadFileProblem> {
        reads += 1
        return index.comment(at: position)
    }
}

/// Ctrl-S in a big thread (issue 22, item 4): each key returns after a bounded amount of work,
/// the comments are read a slice per turn, a later key replaces the scan under way, the match is
/// the one a plain scan finds, and Ctrl-C during a long search quits at once.
final class SearchScaleTests: XCTestCase {
    private static let needle = "xyzzy plugh"

    /// 200,000 generated comments with one that says the needle, 60,000 from the newest.
    private func bigThread() throws -> (ThreadIndex, Int) {
        var bytes: [UInt8] = []
        try ThreadGenerator(comments: 200_000, users: 500, seed: 11).write { bytes += $0 }
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        let firstComment = try XCTUnwrap(lines.firstIndex { $0.starts(with: Array(#"{"type":"comment""#.utf8)) })
        var encoded: [UInt8] = []
        ThreadRecordEncoder().append(.comment(Comment(id: "needle", author: "u7", created: ThreadFixture.start,
                                                      body: "found it: the XYZZY Plugh door")), to: &encoded)
        lines.insert(encoded.dropLast(), at: firstComment + 140_000)
        let directory = try temporaryDirectory(self)
        let path = directory.appendingPathComponent("big.jsonl").path
        try Data(Array(lines.joined(separator: [0x0A]))).write(to: URL(fileURLWithPath: path))
        let index = try ThreadIndex.open(path: path)
        // What a plain scan from the newest finds: the newest comment saying the needle.
        let expected = try XCTUnwrap((0..<index.commentCount).reversed().first { position in
            (try? index.comment(at: position).get().body.lowercased().contains(Self.needle)) == true
        })
        return (index, expected)
    }

    func testKeysReturnAtOnceAndTheScanGoesOnASliceATurn() throws {
        let (index, expected) = try bigThread()
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
            XCTAssertEqual(app.feed.search?.scan?.done, 0, "a key starts a new scan (the one under way is dropped)")
        }
        func turn() {
            let before = store.reads
            pilot.advance(by: 1.0 / 60)
            turns += 1
            XCTAssertLessThanOrEqual(store.reads - before, FeedSearch.sliceComments + 40, "a turn reads a slice")
        }
        for character in "xyzzy plug" { key(character) }
        for _ in 0..<3 { turn() }
        XCTAssertEqual(app.feed.search?.scan?.done, 3 * FeedSearch.sliceComments, "still scanning: the needle is far")
        XCTAssertNotNil(app.nextDeadline, "the loop wakes for the next slice")
        key("h")
        var guardTurns = 0
        while app.feed.isSearching, guardTurns < 200 { turn(); guardTurns += 1 }
        XCTAssertEqual(app.feed.search?.match, expected, "the match a plain scan finds")
        XCTAssertEqual(app.feed.selected, expected)
        XCTAssertGreaterThan(turns, 10, "the 60,000 comments were read over many turns")

        // A long search, then Ctrl-C: it quits at once, reading nothing more.
        for character in " not there" { key(character) }
        turn()
        let before = store.reads
        XCTAssertEqual(app.update(.key(.ctrl("c")), at: pilot.time), [.quit])
        XCTAssertLessThanOrEqual(store.reads - before, 40)
    }

    func testAMissAtAMillionStopsAtTheStepLimitAndEnterGoesOn() {
        let store = CountingStore(count: 1_000_000)
        var fixture = ThreadFixture(title: "Big", users: [ThreadFixture.ann, ThreadFixture.bo])
        fixture.store = store
        let pilot = fixture.pilot(columns: 120, rows: 20)
        pilot.press(.ctrl("s"))
        pilot.type("absent")
        var turns = 0
        while pilot.app.feed.isSearching, turns < 1_000 { pilot.advance(by: 1.0 / 60); turns += 1 }
        XCTAssertEqual(turns, FeedSearch.scanLimit / FeedSearch.sliceComments)
        XCTAssertTrue(pilot.lines.last!.contains("not in 100000 comments; Enter goes on"), pilot.lines.last!)
        XCTAssertEqual(pilot.app.feed.search?.match, 1_000_000 - FeedSearch.scanLimit)
    }
}
