import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// A store of generated comments that counts what the feed asks of it.
final class CountingStore: CommentStore {
    let commentCount: Int
    private(set) var requested = Set<Int>()
    var broken: Set<Int> = []

    init(count: Int) { commentCount = count }

    func comment(at index: Int) -> Result<Comment, ThreadFileProblem> {
        requested.insert(index)
        if broken.contains(index) { return .failure(ThreadFileProblem(line: index + 3, message: "not valid JSON, skipped")) }
        let body = "comment \(index) " + String(repeating: "word ", count: index % 13)
        return .success(Comment(id: "c\(index)", author: "u2", created: ThreadFixture.start, body: body))
    }
}

final class FeedScaleTests: XCTestCase {
    /// A thread whose comments are all in `store`, read by ann.
    func big(_ store: CountingStore) -> ThreadFixture {
        var fixture = ThreadFixture(title: "Hello \u{1B}[2Jworld", users: [ThreadFixture.ann, ThreadFixture.bo])
        fixture.store = store
        fixture.label = "big.jsonl"
        return fixture
    }

    func testAMillionCommentsOpenAtTheNewestAndReadOnlyWhatIsShown() {
        let store = CountingStore(count: 1_000_000)
        let (app, screen) = big(store).open(columns: 60, rows: 20)
        screen.show(app)
        XCTAssertTrue(screen.plainLines.contains { $0.hasPrefix("   comment 999999") })
        XCTAssertTrue(screen.plainLines[19].hasSuffix("comment 1000000/1000000") || screen.plainLines[19].contains("/1000000"))
        XCTAssertLessThan(store.requested.count, 30, "only the last screen was read")
        XCTAssertTrue(store.requested.allSatisfy { $0 > 999_900 })

        for _ in 0..<50 { _ = app.handle(.key(KeyPress(.pageUp))) }
        app.settle()
        screen.show(app)
        XCTAssertLessThan(store.requested.count, 50 * 20, "paging reads the comments it passes, no more")

        let before = store.requested.count
        _ = app.handle(.key(KeyPress(.home, .ctrl))); app.settle()
        screen.show(app)
        XCTAssertTrue(screen.plainLines.contains { $0.hasPrefix("   comment 0") })
        XCTAssertLessThan(store.requested.count - before, 30, "the top is one jump away")
        // The newest comment shown at the top of the thread is comment 5 (position 4).
        XCTAssertTrue(screen.plainLines[19].contains("comment 5/1000000"), screen.plainLines[19])
    }

    func testABrokenLineShowsItsProblemInPlace() {
        let store = CountingStore(count: 10)
        store.broken = [8]
        let (app, screen) = big(store).open(columns: 60, rows: 20)
        screen.show(app)
        XCTAssertTrue(screen.plainLines.contains("   line 11: not valid JSON, skipped"), screen.plainLines.joined(separator: "\n"))
        XCTAssertTrue(screen.plainLines.contains("   comment 9 word word word word word word word word word"))
    }

    func testResizeKeepsTheCommentBeingRead() {
        let store = CountingStore(count: 5000)
        let (app, screen) = big(store).open(columns: 60, rows: 20)
        for _ in 0..<40 { _ = app.handle(.key(KeyPress(.pageUp))) }
        app.settle()
        screen.show(app)
        let reading = app.feedTop.comment
        app.resize(columns: 30, rows: 20)
        screen.resize(columns: 30, rows: 20)
        screen.show(app)
        XCTAssertEqual(app.feedTop.comment, reading)
        app.resize(columns: 100, rows: 30)
        screen.resize(columns: 100, rows: 30)
        screen.show(app)
        XCTAssertEqual(app.feedTop.comment, reading)
        XCTAssertFalse(app.isFollowingBottom)
    }

    func testRowStepsAreExactAcrossCommentBoundaries() {
        let store = CountingStore(count: 200)
        let (app, _) = big(store).open(columns: 60, rows: 20)
        _ = app.handle(.key(KeyPress(.home, .ctrl))); app.settle()
        var previous = app.feedOffset
        for _ in 0..<150 {
            _ = app.handle(.key(KeyPress(.down, .ctrl))); app.settle()
            let now = app.feedOffset
            XCTAssertEqual(now, previous + 1)
            previous = now
        }
        for _ in 0..<150 {
            _ = app.handle(.key(KeyPress(.up, .ctrl))); app.settle()
            let now = app.feedOffset
            XCTAssertEqual(now, previous - 1)
            previous = now
        }
        XCTAssertEqual(previous, 0)
    }

    func testAMillionCommentsScrollAnywhereThroughAWindow() {
        let store = CountingStore(count: 1_000_000)
        let (app, screen) = big(store).open(columns: 60, rows: 20)
        screen.show(app)
        let scroll = app.feed.scroll
        XCTAssertEqual(scroll.windowEnd - scroll.windowStart, FeedScroll.initialWindow)
        app.feed.scroll.jump(toFraction: 0.5, at: app.now)
        app.settle()
        screen.show(app)
        XCTAssertEqual(Double(app.feedTop.comment), 500_000, accuracy: 2)
        XCTAssertTrue(screen.plainLines.contains { $0.hasPrefix("   comment 500000") })
        // Page up far past the window's start: batches are prepended, the window stays bounded.
        var previous = app.feedTop.comment
        for _ in 0..<600 {
            _ = app.handle(.key(KeyPress(.pageUp)))
            app.settle()
            XCTAssertLessThan(app.feedTop.comment, previous)
            previous = app.feedTop.comment
            XCTAssertLessThanOrEqual(scroll.windowEnd - scroll.windowStart, FeedScroll.maximumWindow + FeedScroll.batch)
        }
        scroll._checkInvariants()
        XCTAssertLessThan(previous, 500_000 - 2000)
        XCTAssertLessThan(store.requested.count, 20_000, "only comments near the view were read")
        _ = app.handle(.key(KeyPress(.home, .ctrl)))
        app.settle()
        XCTAssertEqual(scroll.model.contentOffset, 0)
        XCTAssertEqual(app.statusPosition.index, 5, "the newest comment shown at the top")
        _ = app.handle(.key(KeyPress(.end, .ctrl)))
        app.settle()
        XCTAssertTrue(app.isFollowingBottom)
        XCTAssertEqual(app.statusPosition.count, 1_000_000)
    }

    func testProblemsFoundWhileOpeningShowInTheStatusBar() {
        let (app, screen) = big(CountingStore(count: 10)).open(columns: 140, rows: 20)
        app.reportOpeningProblems([ThreadFileProblem(line: 7, message: "not valid JSON, skipped"),
                                   ThreadFileProblem(line: 9, message: "torn line, skipped")])
        screen.show(app)
        XCTAssertTrue(screen.plainLines.last!.hasSuffix("big.jsonl line 7: not valid JSON, skipped (and 1 more: comment-tui check big.jsonl)"),
                      screen.plainLines.last!)
    }
}
