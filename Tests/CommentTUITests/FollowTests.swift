import XCTest
@testable import ThreadModel
@testable import CommentTUI

final class FollowTests: XCTestCase {
    func makeApp(comments: Int) -> (CommentApp, HeadlessScreen) {
        let thread = makeSmallThread(comments: comments)
        let app = CommentApp(thread: thread, me: thread.user(id: "u1")!, threadLabel: "t.jsonl", columns: 80, rows: 12)
        app.wallTime = testNow
        return (app, HeadlessScreen(columns: 80, rows: 12))
    }

    func update(_ records: [ThreadRecord], problems: [ThreadFileProblem] = []) -> ThreadFileUpdate {
        var update = ThreadFileUpdate()
        update.records = records.enumerated().map { ($0.element, 100 + $0.offset) }
        update.problems = problems
        return update
    }

    func comment(_ id: String, _ body: String, author: String = "u2") -> ThreadRecord {
        .comment(Comment(id: id, author: author, created: testThreadStart, body: body))
    }

    func testAppendedCommentsAreFollowedAtTheBottom() {
        let (app, screen) = makeApp(comments: 20)
        screen.present(app.render(), full: false)
        app.receive(update([.user(User(id: "u9", handle: "zed", name: "Zed")), comment("n1", "fresh from outside", author: "u9")]))
        screen.present(app.render(), full: false)
        XCTAssertTrue(screen.plainLines.contains("   fresh from outside"))
        XCTAssertTrue(screen.plainLines.contains { $0.hasPrefix(" Zed @zed") })
        XCTAssertEqual(app.newCount, 0)
        XCTAssertTrue(screen.plainLines[11].contains("comment") && !screen.plainLines[11].contains("new"))
    }

    func testElsewhereTheReadingPositionStaysAndNewOnesAreCounted() {
        let (app, screen) = makeApp(comments: 20)
        _ = app.render()
        _ = app.handle(.key(KeyPress(.home, .ctrl)))
        app.settle()
        screen.present(app.render(), full: false)
        let before = screen.plainLines
        app.receive(update([comment("n1", "one"), comment("n2", "two")]))
        screen.present(app.render(), full: false)
        XCTAssertEqual(Array(screen.plainLines[2..<8]), Array(before[2..<8]), "the feed did not move")
        XCTAssertTrue(screen.plainLines[8].hasSuffix("↓ 2 new"), "a marker at the feed's bottom")
        XCTAssertTrue(screen.plainLines[11].contains("2 new"), screen.plainLines[11])
        _ = app.handle(.key(KeyPress(.end, .ctrl)))
        app.settle()
        screen.present(app.render(), full: false)
        XCTAssertEqual(app.newCount, 0)
        XCTAssertTrue(screen.plainLines.contains("   two"))
    }

    func testOwnPostsAppearOnce() {
        let (app, _) = makeApp(comments: 2)
        var posted: [Comment] = []
        app.post = { posted.append($0) }
        for c in "mine\r" { _ = app.handle(.key(KeyPress(c == "\r" ? .enter : .character(c)))) }
        XCTAssertEqual(posted.count, 1)
        app.receive(update([.comment(posted[0])]))   // the file echoes our own append
        XCTAssertEqual(app.thread.comments.filter { $0.body == "mine" }.count, 1)
        XCTAssertEqual(app.thread.comments.count, 3)
    }

    func testProblemsInAppendsShowInTheStatusBar() {
        let (app, screen) = makeApp(comments: 2)
        app.receive(update([], problems: [ThreadFileProblem(line: 42, message: "torn line (an append that never finished), skipped")]))
        screen.present(app.render(), full: false)
        XCTAssertTrue(screen.plainLines[11].contains("line 42: torn"), screen.plainLines[11])
    }
}
