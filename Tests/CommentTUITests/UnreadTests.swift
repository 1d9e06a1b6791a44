import Foundation
@testable import ThreadModel
import XCTest
@testable import CommentTUI

/// The read marker, the "new" divider, Alt-U, and the bell for mentions.
final class UnreadTests: XCTestCase {
    private func makeApp(comments: Int = 30) -> (CommentApp, HeadlessScreen) {
        let app = CommentApp(thread: makeSmallThread(comments: comments), me: User(id: "u1", handle: "ann", name: "Ann"),
                             threadLabel: "t", columns: 40, rows: 14)
        app.wallTime = testNow
        return (app, HeadlessScreen(columns: 40, rows: 14))
    }

    func testAMarkerPutsTheDividerAboveTheFirstUnreadAndAltUGoesThere() {
        let (app, screen) = makeApp()
        app.restore(ReadMarker(commentID: "c10", position: 9))
        XCTAssertEqual(app.firstUnread, 10)
        screen.present(app.render(), full: false)
        XCTAssertFalse(screen.plainLines.contains { $0.contains(" new ") }, "the newest comments show; the divider is above")
        _ = app.handle(.key(.alt("u"))); app.settle()
        screen.present(app.render(), full: false)
        XCTAssertTrue(screen.plainLines[2].hasPrefix(" ─") && screen.plainLines[2].contains(" new "), screen.plainLines.joined(separator: "\n"))
        XCTAssertEqual(screen.plainLines[4], "   comment number 11")
    }

    func testAMarkerNamingAnotherCommentIsIgnored() {
        let (app, _) = makeApp()
        app.restore(ReadMarker(commentID: "other", position: 9))
        XCTAssertNil(app.firstUnread)
        _ = app.handle(.key(.alt("u"))); app.settle()
        XCTAssertEqual(app.message, "no unread comments")
    }

    func testTheMarkerSavedIsTheNewestCommentSeen() throws {
        let (app, screen) = makeApp()
        screen.present(app.render(), full: false)
        XCTAssertEqual(app.readMarker, ReadMarker(commentID: "c30", position: 29))
        let directory = try temporaryDirectory(self)
        let files = try XCTUnwrap(ThreadStateFiles(threadPath: "/x/t.jsonl", environment: ["XDG_DATA_HOME": directory.path]))
        try app.readMarker!.save(files)
        XCTAssertEqual(ReadMarker.load(files), ReadMarker(commentID: "c30", position: 29))
        XCTAssertTrue(files.path(for: "read.json").hasPrefix(directory.path + "/comment-tui/state/t.jsonl-"))
    }

    func testACommentMentioningMeRingsTheBellOnce() {
        let (app, screen) = makeApp(comments: 3)
        screen.present(app.render(), full: false)
        let mention = Comment(id: "m1", author: "u2", created: testNow, body: "hey @ann look")
        let other = Comment(id: "m2", author: "u2", created: testNow, body: "hey @annabel, not ann")
        app.receive(ThreadFileUpdate(records: [(.comment(other), 10)], problems: []))
        screen.present(app.render(), full: false)
        XCTAssertEqual(screen.bellCount, 0)
        app.receive(ThreadFileUpdate(records: [(.comment(mention), 11)], problems: []))
        screen.present(app.render(), full: false)
        screen.present(app.render(), full: false)
        XCTAssertEqual(screen.bellCount, 1)
    }
}
