import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

final class FollowTests: XCTestCase {
    func comment(_ id: String, _ body: String, author: String = "u2") -> ThreadRecord {
        .comment(Comment(id: id, author: author, created: ThreadFixture.start, body: body))
    }

    func testAppendedCommentsAreFollowedAtTheBottom() {
        let (app, screen) = ThreadFixture.numbered(20).open(columns: 80, rows: 12)
        screen.show(app)
        app.receive(fileUpdates([.user(User(id: "u9", handle: "zed", name: "Zed")), comment("n1", "fresh from outside", author: "u9")]))
        app.settle()   // past its arrival's transition
        screen.show(app)
        XCTAssertTrue(screen.plainLines.contains("   fresh from outside"))
        XCTAssertTrue(screen.plainLines.contains { $0.hasPrefix(" Zed @zed") })
        XCTAssertEqual(app.newCommentsBelow, 0)
        XCTAssertTrue(screen.plainLines[11].contains("comment") && !screen.plainLines[11].contains("new"))
    }

    func testElsewhereTheReadingPositionStaysAndNewOnesAreCounted() {
        let (app, screen) = ThreadFixture.numbered(20).open(columns: 80, rows: 12)
        _ = app.handle(.key(KeyPress(.home, .ctrl)))
        app.settle()
        screen.show(app)
        let before = screen.plainLines
        app.receive(fileUpdates([comment("n1", "one"), comment("n2", "two")]))
        screen.show(app)
        XCTAssertEqual(Array(screen.plainLines[2..<8]), Array(before[2..<8]), "the feed did not move")
        XCTAssertTrue(screen.plainLines[8].hasSuffix("↓ 2 new"), "a marker at the feed's bottom")
        XCTAssertTrue(screen.plainLines[11].contains("2 new"), screen.plainLines[11])
        _ = app.handle(.key(KeyPress(.end, .ctrl)))
        app.settle()
        screen.show(app)
        XCTAssertEqual(app.newCommentsBelow, 0)
        XCTAssertTrue(screen.plainLines.contains("   two"))
    }

    func testOwnPostsAppearOnce() {
        let (app, _) = ThreadFixture.numbered(2).open(columns: 80, rows: 12)
        for c in "mine\r" { _ = app.handle(.key(KeyPress(c == "\r" ? .enter : .character(c)))) }
        let posted = app.memorySource.sent
        XCTAssertEqual(posted.count, 1)
        app.receive(fileUpdates([.comment(posted[0])]))   // the file echoes our own append
        XCTAssertEqual(app.allComments.filter { $0.body == "mine" }.count, 1)
        XCTAssertEqual(app.allComments.count, 3)
    }

    func testProblemsInAppendsShowInTheStatusBar() {
        let (app, screen) = ThreadFixture.numbered(2).open(columns: 80, rows: 12)
        app.receive(fileUpdates([], problems: [ThreadFileProblem(line: 42, message: "torn line (an append that never finished), skipped")]))
        screen.show(app)
        XCTAssertTrue(screen.plainLines[11].contains("line 42: torn"), screen.plainLines[11])
    }
}
