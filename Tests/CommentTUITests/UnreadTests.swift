import Foundation
@testable import ThreadModel
import XCTest
@testable import CommentTUI
import CommentTUITestSupport

/// The read marker, the "new" divider, Alt-U, and the bell for mentions.
final class UnreadTests: XCTestCase {
    func testAMarkerPutsTheDividerAboveTheFirstUnreadAndAltUGoesThere() {
        let (app, screen) = ThreadFixture.numbered(30).read(by: ThreadFixture.cy).open(rows: 14)
        app.restore(ReadMarker(commentID: "c10", position: 9))
        XCTAssertEqual(app.feed.firstUnread, 10)
        screen.show(app)
        XCTAssertEqual(app.message, "20 unread · Alt-U", "said at once")
        XCTAssertFalse(screen.plainLines.contains { $0.contains(" new ") }, "the newest comments show; the divider is above")
        _ = app.handle(.key(.alt("u"))); app.settle()
        screen.show(app)
        XCTAssertTrue(screen.plainLines[2].hasPrefix(" ─") && screen.plainLines[2].contains(" new "), screen.plainLines.joined(separator: "\n"))
        XCTAssertEqual(screen.plainLines[4], "   comment number 11")
        XCTAssertNil(app.message, "at the first unread comment the notice has done its work")
    }

    func testOpeningAThreadWithUnreadCommentsSaysHowMany() throws {
        let file = try LiveThreadFile(self, comments: 5)
        let files = try XCTUnwrap(ThreadStateFiles(threadPath: file.path, environment: ["XDG_DATA_HOME": file.data]))
        try ReadMarker(commentID: "c2", position: 1).save(files)
        let app = try file.openApp()
        XCTAssertEqual(app.feed.firstUnread, 2)
        XCTAssertEqual(app.message, "3 unread · Alt-U", "said as the thread opens, not only when a marker is restored later")
    }

    func testARestoredDraftIsSaidWithTheUnreadNotice() throws {
        let file = try LiveThreadFile(self, comments: 5)
        let files = try XCTUnwrap(ThreadStateFiles(threadPath: file.path, environment: ["XDG_DATA_HOME": file.data]))
        try ReadMarker(commentID: "c2", position: 1).save(files)
        let first = try file.openApp()
        LiveThreadFile.type("half a thought", into: first)
        XCTAssertNil(first.prepareToExit())
        let again = try file.openApp()
        XCTAssertEqual(again.message, "draft restored · 3 unread · Alt-U")
    }

    func testAMarkerNamingAnotherCommentIsIgnored() {
        let (app, _) = ThreadFixture.numbered(30).open(rows: 14)
        app.restore(ReadMarker(commentID: "other", position: 9))
        XCTAssertNil(app.feed.firstUnread)
        XCTAssertNil(app.message)
        _ = app.handle(.key(.alt("u"))); app.settle()
        XCTAssertEqual(app.message, "no unread comments")
    }

    func testTheMarkerSavedIsTheNewestCommentSeen() throws {
        let (app, screen) = ThreadFixture.numbered(30).open(rows: 14)
        screen.show(app)
        XCTAssertEqual(app.readMarker, ReadMarker(commentID: "c30", position: 29))
        let directory = try temporaryDirectory(self)
        let files = try XCTUnwrap(ThreadStateFiles(threadPath: "/x/t.jsonl", environment: ["XDG_DATA_HOME": directory.path]))
        try app.readMarker!.save(files)
        XCTAssertEqual(ReadMarker.load(files), ReadMarker(commentID: "c30", position: 29))
        XCTAssertTrue(files.path(for: "read.json").hasPrefix(directory.path + "/comment-tui/state/t.jsonl-"))
    }

    func testACommentMentioningMeRingsTheBellOnce() {
        let (app, screen) = ThreadFixture.numbered(3).open(rows: 14)
        screen.show(app)
        let mention = Comment(id: "m1", author: "u2", created: ThreadFixture.now, body: "hey @ann look")
        let other = Comment(id: "m2", author: "u2", created: ThreadFixture.now, body: "hey @annabel, not ann")
        app.receive(fileUpdates([.comment(other)]))
        screen.show(app)
        XCTAssertEqual(screen.bellCount, 0)
        app.receive(fileUpdates([.comment(mention)]))
        screen.show(app)
        screen.show(app)
        XCTAssertEqual(screen.bellCount, 1)
    }
}
