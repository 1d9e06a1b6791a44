import XCTest
@testable import ThreadModel
@testable import CommentTUI

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
        return .success(Comment(id: "c\(index)", author: "u2", created: testThreadStart, body: body))
    }
}

final class FeedScaleTests: XCTestCase {
    func makeApp(store: CountingStore, columns: Int = 60, rows: Int = 20) -> (CommentApp, HeadlessScreen) {
        var thread = makeSmallThread(comments: 1)
        thread = CommentThread(id: thread.id, title: thread.title, author: thread.author, created: thread.created, body: "", users: thread.users)
        let app = CommentApp(thread: thread, store: store, me: thread.user(id: "u1")!, threadLabel: "big.jsonl", columns: columns, rows: rows)
        app.wallTime = testNow
        return (app, HeadlessScreen(columns: columns, rows: rows))
    }

    func testAMillionCommentsOpenAtTheNewestAndReadOnlyWhatIsShown() {
        let store = CountingStore(count: 1_000_000)
        let (app, screen) = makeApp(store: store)
        screen.present(app.render(), full: false)
        XCTAssertTrue(screen.plainLines.contains { $0.hasPrefix("   comment 999999") })
        XCTAssertTrue(screen.plainLines[19].hasSuffix("comment 1000000/1000000") || screen.plainLines[19].contains("/1000000"))
        XCTAssertLessThan(store.requested.count, 30, "only the last screen was read")
        XCTAssertTrue(store.requested.allSatisfy { $0 > 999_900 })

        for _ in 0..<50 { _ = app.handle(.key(KeyPress(.pageUp))) }
        app.settle()
        screen.present(app.render(), full: false)
        XCTAssertLessThan(store.requested.count, 50 * 20, "paging reads the comments it passes, no more")

        let before = store.requested.count
        _ = app.handle(.key(KeyPress(.home, .ctrl))); app.settle()
        screen.present(app.render(), full: false)
        XCTAssertTrue(screen.plainLines.contains { $0.hasPrefix("   comment 0") })
        XCTAssertLessThan(store.requested.count - before, 30, "the top is one jump away")
        XCTAssertTrue(screen.plainLines[19].contains("comment 1/1000000"), screen.plainLines[19])
    }

    func testABrokenLineShowsItsProblemInPlace() {
        let store = CountingStore(count: 10)
        store.broken = [8]
        let (app, screen) = makeApp(store: store)
        screen.present(app.render(), full: false)
        XCTAssertTrue(screen.plainLines.contains("   line 11: not valid JSON, skipped"), screen.plainLines.joined(separator: "\n"))
        XCTAssertTrue(screen.plainLines.contains("   comment 9 word word word word word word word word word"))
    }

    func testResizeKeepsTheCommentBeingRead() {
        let store = CountingStore(count: 5000)
        let (app, screen) = makeApp(store: store)
        _ = app.render()
        for _ in 0..<40 { _ = app.handle(.key(KeyPress(.pageUp))) }
        app.settle()
        screen.present(app.render(), full: false)
        let reading = app.feedAnchor.comment
        app.resize(columns: 30, rows: 20)
        screen.resize(columns: 30, rows: 20)
        screen.present(app.render(), full: false)
        XCTAssertEqual(app.feedAnchor.comment, reading)
        app.resize(columns: 100, rows: 30)
        screen.resize(columns: 100, rows: 30)
        screen.present(app.render(), full: false)
        XCTAssertEqual(app.feedAnchor.comment, reading)
        XCTAssertFalse(app.isFollowingBottom)
    }

    func testRowStepsAreExactAcrossCommentBoundaries() {
        let store = CountingStore(count: 200)
        let (app, _) = makeApp(store: store)
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
        let (app, screen) = makeApp(store: store)
        screen.present(app.render(), full: false)
        let scroll = app.feedScroll
        XCTAssertEqual(scroll.windowEnd - scroll.windowStart, FeedScroll.initialWindow)
        app.feedScroll.jump(toFraction: 0.5, at: app.now)
        app.settle()
        screen.present(app.render(), full: false)
        XCTAssertEqual(Double(app.feedAnchor.comment), 500_000, accuracy: 2)
        XCTAssertTrue(screen.plainLines.contains { $0.hasPrefix("   comment 500000") })
        // Page up far past the window's start: batches are prepended, the window stays bounded.
        var previous = app.feedAnchor.comment
        for _ in 0..<600 {
            _ = app.handle(.key(KeyPress(.pageUp)))
            app.settle()
            XCTAssertLessThan(app.feedAnchor.comment, previous)
            previous = app.feedAnchor.comment
            XCTAssertLessThanOrEqual(scroll.windowEnd - scroll.windowStart, FeedScroll.maximumWindow + FeedScroll.batch)
        }
        scroll._checkInvariants()
        XCTAssertLessThan(previous, 500_000 - 2000)
        XCTAssertLessThan(store.requested.count, 20_000, "only comments near the view were read")
        _ = app.handle(.key(KeyPress(.home, .ctrl)))
        app.settle()
        XCTAssertEqual(scroll.model.contentOffset, 0)
        XCTAssertEqual(app.feedPosition.index, 1)
        _ = app.handle(.key(KeyPress(.end, .ctrl)))
        app.settle()
        XCTAssertTrue(app.isFollowingBottom)
        XCTAssertEqual(app.feedPosition.count, 1_000_000)
    }

    func testProblemsFoundWhileOpeningShowInTheStatusBar() {
        let (app, screen) = makeApp(store: CountingStore(count: 10), columns: 140)
        app.reportOpeningProblems([ThreadFileProblem(line: 7, message: "not valid JSON, skipped"),
                                   ThreadFileProblem(line: 9, message: "torn line, skipped")])
        screen.present(app.render(), full: false)
        XCTAssertTrue(screen.plainLines.last!.hasSuffix("big.jsonl line 7: not valid JSON, skipped (and 1 more: comment-tui check big.jsonl)"),
                      screen.plainLines.last!)
    }
}
