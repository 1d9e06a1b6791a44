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
        XCTAssertEqual(app.firstUnreadIndex, 10)
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
        XCTAssertEqual(app.firstUnreadIndex, 2)
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
        XCTAssertNil(app.firstUnreadIndex)
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

    /// Opening at the newest of 20 unread comments reads none of those never shown; Alt-U
    /// reads what it brings to the screen, and paging down (a second between pages) the rest.
    func testTheMarkerMovesOnlyOverCommentsThatWereOnScreen() {
        let pilot = ThreadFixture.numbered(30).read(by: ThreadFixture.cy).pilot(columns: 40, rows: 14)
        pilot.app.restore(ReadMarker(commentID: "c10", position: 9))
        pilot.settle()
        XCTAssertTrue(pilot.lines.contains { $0.hasSuffix("comment number 30") })
        XCTAssertEqual(pilot.app.readMarker, ReadMarker(commentID: "c10", position: 9), "c11…c2x were never on screen")
        pilot.press(KeyPress(.character("u"), .alt))
        pilot.advance(by: 1)
        pilot.runFrames()
        let shown = pilot.lines.compactMap { line in line.range(of: "comment number ").flatMap { Int(line[$0.upperBound...]) } }
        XCTAssertEqual(shown.first, 11, pilot.lines.joined(separator: "\n"))
        XCTAssertEqual(pilot.app.readMarker?.commentID, "c\(shown.max() ?? 0)", "up to the screen's last, no further")
        for _ in 0..<15 where !pilot.isFollowingBottom {
            pilot.press(.pageDown)
            pilot.advance(by: 1)
            pilot.runFrames()
        }
        XCTAssertEqual(pilot.app.readMarker, ReadMarker(commentID: "c30", position: 29))
    }

    /// A jump's frames in flight are not reading: Ctrl-Home from the newest reads only the top.
    func testCommentsFlyingPastInAJumpAreNotRead() {
        let pilot = ThreadFixture.numbered(30).read(by: ThreadFixture.cy).pilot(columns: 40, rows: 14)
        pilot.app.restore(ReadMarker(commentID: "c1", position: 0))
        pilot.press(.ctrlHome)
        pilot.runFrames()
        // At the top: the post, c1, c2, and c3's header on the feed's last row (read by it).
        XCTAssertTrue(pilot.lines.contains("   comment number 2") && !pilot.lines.contains("   comment number 3"), pilot.lines.joined(separator: "\n"))
        XCTAssertEqual(pilot.app.readMarker, ReadMarker(commentID: "c3", position: 2))
        pilot.press(.ctrlEnd)
        pilot.runFrames()
        XCTAssertTrue(pilot.lines.contains { $0.hasSuffix("comment number 30") })
        XCTAssertEqual(pilot.app.readMarker, ReadMarker(commentID: "c3", position: 2), "nothing flying past on the way down, nor the newest, away from it")
    }

    /// The reader's own comments after the marker were read when written: the divider goes
    /// below the last of them, and `N unread` counts only what follows.
    func testTheReadersOwnCommentsNeverSitBelowTheDivider() {
        let fixture = ThreadFixture(title: "Own", users: [ThreadFixture.cy, ThreadFixture.bo])
            .adding((1...10).map { "before \($0)" }, by: ThreadFixture.bo.id)
            .adding(["answered elsewhere"], by: ThreadFixture.bo.id)
            .adding(["my answer"], by: ThreadFixture.cy.id)
            .adding((1...6).map { "after \($0)" }, by: ThreadFixture.bo.id)
        let marker = fixture.thread.comments[9]
        XCTAssertEqual(marker.body, "before 10")
        let pilot = fixture.pilot(columns: 40, rows: 14)
        pilot.app.restore(ReadMarker(commentID: marker.id, position: 9))
        XCTAssertEqual(pilot.app.message, "6 unread · Alt-U")
        pilot.press(KeyPress(.character("u"), .alt))
        pilot.settle()
        let lines = pilot.lines
        let divider = lines.firstIndex { $0.hasPrefix(" ─") && $0.contains(" new ") } ?? 0
        XCTAssertTrue(lines[divider...].prefix(3).contains { $0.hasSuffix("after 1") }, lines.joined(separator: "\n"))
        XCTAssertFalse(lines[divider...].contains { $0.hasSuffix("my answer") }, lines.joined(separator: "\n"))
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
