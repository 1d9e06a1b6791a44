import Foundation
@testable import ThreadModel
import XCTest
@testable import CommentTUI
import CommentTUITestSupport

/// Selecting comments and acting on them: spoilers, expanding, links, link visibility, times.
final class CommentActionTests: XCTestCase {
    static let longBody = (1...20).map { "long line \($0)" }.joined(separator: "\\\n")

    /// Three comments: one with two spoilers, a long one of ann's, one with a link and a mention.
    static var actions: ThreadFixture {
        var fixture = ThreadFixture(title: "Actions", users: [ThreadFixture.ann, User(id: "u2", handle: "bo", name: "Bo")])
        fixture.add(Comment(id: "c1", author: "u2", created: ThreadFixture.start, body: "see ||one|| and ||two||"))
        fixture.add(Comment(id: "c2", author: "u1", created: ThreadFixture.start, body: longBody))
        fixture.add(Comment(id: "c3", author: "u2", created: ThreadFixture.start, body: "read [the docs](https://example.com/docs) @ann"))
        return fixture
    }

    private func show(_ app: CommentApp, _ screen: HeadlessScreen) -> [String] {
        screen.show(app)
        screen.screen._checkInvariants()
        return screen.lines
    }

    private func key(_ app: CommentApp, _ press: KeyPress) { _ = app.handle(.key(press)); app.settle() }
    private func click(_ app: CommentApp, column: Int, row: Int) {
        _ = app.handle(.mouse(MouseEvent(.left, .press, column: column, row: row)))
        _ = app.handle(.mouse(MouseEvent(.left, .release, column: column, row: row)))
    }

    func testLongCommentsCollapseWithAMarkerThatFitsTheLastRow() {
        let (app, screen) = Self.actions.open(columns: 50, rows: 40)
        app.feed.scrollToTop(); app.settle()
        let lines = show(app, screen)
        XCTAssertTrue(lines.contains("   long line 12 … 8 more lines"), lines.joined(separator: "\n"))
        XCTAssertFalse(lines.contains("   long line 13"))
    }

    func testSelectionMarksTheGutterAndEscClearsIt() {
        let (app, screen) = Self.actions.open(columns: 50, rows: 40)
        app.feed.scrollToTop(); app.settle()
        // With nothing selected, the first key selects the newest comment shown (all three show).
        key(app, KeyPress(.down, .alt))
        XCTAssertEqual(app.selectedCommentIndex, 2)
        key(app, KeyPress(.up, .alt))
        key(app, KeyPress(.up, .alt))
        var lines = show(app, screen)
        XCTAssertEqual(app.selectedCommentIndex, 0)
        XCTAssertTrue(lines[3].hasPrefix("▌Bo"), lines[3])
        key(app, KeyPress(.down, .alt))
        lines = show(app, screen)
        XCTAssertEqual(app.selectedCommentIndex, 1)
        XCTAssertFalse(lines[3].hasPrefix("▌"))
        XCTAssertTrue(lines.contains("▌  long line 1"))
        key(app, KeyPress(.up, .alt))
        XCTAssertEqual(app.selectedCommentIndex, 0)
        key(app, KeyPress(.escape))
        XCTAssertNil(app.selectedCommentIndex)
        XCTAssertFalse(show(app, screen).contains { $0.hasPrefix("▌") })
    }

    func testAltSRevealsTheSelectedCommentsSpoilersAndAClickRevealsOne() {
        let (app, screen) = Self.actions.open(columns: 50, rows: 40)
        app.feed.scrollToTop(); app.settle()
        XCTAssertTrue(show(app, screen).contains("   see ░░░ and ░░░"))
        // Row 4 is the first comment's body; "see " puts the first spoiler at body column 4.
        click(app, column: FeedLayout.bodyIndent + 4, row: 4)
        app.settle()   // past the dissolve (EffectTests draws it frame by frame)
        XCTAssertTrue(show(app, screen).contains("▌  see one and ░░░"))
        key(app, .alt("s"))
        XCTAssertTrue(show(app, screen).contains("▌  see one and two"))
        key(app, .alt("s"))
        XCTAssertTrue(show(app, screen).contains("▌  see ░░░ and ░░░"), "Alt-S again hides them")
    }

    func testAltEAndAClickOnTheMarkerExpandAndCollapse() {
        let (app, screen) = Self.actions.open(columns: 50, rows: 40)
        app.feed.scrollToTop(); app.settle()
        key(app, KeyPress(.up, .alt))      // the newest shown, c3
        key(app, KeyPress(.up, .alt))
        key(app, .alt("e"))
        var lines = show(app, screen)
        XCTAssertTrue(lines.contains("▌  long line 20"), lines.joined(separator: "\n"))
        guard let markerRow = lines.firstIndex(of: "▌  ⌃ show less") else { return XCTFail(lines.joined(separator: "\n")) }
        click(app, column: FeedLayout.bodyIndent + 2, row: markerRow)
        lines = show(app, screen)
        XCTAssertFalse(lines.contains("▌  long line 20"))
        guard let collapsed = lines.firstIndex(where: { $0.hasSuffix("8 more lines") }) else { return XCTFail() }
        let markerColumn = DisplayWidth.width(of: lines[collapsed].prefix(while: { $0 != "8" }))
        click(app, column: markerColumn + 2, row: collapsed)
        XCTAssertTrue(show(app, screen).contains("▌  long line 20"), "a click on the marker expands")
    }

    func testLinksOpenFromAltOAndClicksOrShowInTheStatusBar() {
        let (app, screen) = Self.actions.open(columns: 50, rows: 40)
        var opened: [String] = []
        app.openLink = { opened.append($0); return true }
        let lines = show(app, screen)
        guard let row = lines.firstIndex(of: "   read the docs (example.com) @ann") else { return XCTFail(lines.joined(separator: "\n")) }
        click(app, column: FeedLayout.bodyIndent + 6, row: row)
        XCTAssertEqual(opened, ["https://example.com/docs"])
        key(app, .alt("o"))
        XCTAssertEqual(opened, ["https://example.com/docs", "https://example.com/docs"])
        app.openLink = nil
        key(app, .alt("o"))
        XCTAssertEqual(app.message, "link: https://example.com/docs")
        XCTAssertTrue(show(app, screen).last!.contains("link: https://"))
        XCTAssertEqual(app.handle(.key(.alt("o"))), nil)
    }

    func testMentionsOfMeStandOut() {
        let (app, screen) = Self.actions.open(columns: 50, rows: 40)
        _ = show(app, screen)
        let row = screen.lines.firstIndex(of: "   read the docs (example.com) @ann")!
        let column = FeedLayout.bodyIndent + DisplayWidth.width(of: "read the docs (example.com) ")
        XCTAssertEqual(screen.screen[column, row].style, Theme.mentionOfMe)
    }

    func testLinkVisibilityCountsTimeSeenWhole() {
        let (app, screen) = Self.actions.open(columns: 50, rows: 40)
        _ = show(app, screen)
        app.wallTime = ThreadFixture.now.addingTimeInterval(2.5)
        app.feed.scrollToTop(); app.settle()
        _ = show(app, screen)
        var records = app.linkVisibility.records(at: app.wallTime)
        XCTAssertEqual(records.count, 1)
        XCTAssertEqual(records.first?.firstSeen, ThreadFixture.now)
        let first = records.first?.visible ?? 0
        // At the top with 40 rows the last comment may still show: then it keeps counting.
        XCTAssertGreaterThanOrEqual(first, 2.5)
        records = app.linkVisibility.records(at: ThreadFixture.now.addingTimeInterval(4))
        let json = String(decoding: LinkVisibility.jsonLines(records), as: UTF8.self)
        XCTAssertTrue(json.hasPrefix(#"{"comment":"c3","url":"https://example.com/docs","first_seen":"2025-05-17T10:00:00Z","visible_ms":"#), json)
        XCTAssertTrue(json.hasSuffix("}\n"))
    }

    func testALinkLeavingTheScreenStopsCounting() {
        let (app, screen) = Self.actions.open(columns: 50, rows: 12)
        _ = show(app, screen)
        XCTAssertEqual(app.linkVisibility.records(at: ThreadFixture.now).count, 1, "the newest comment is on screen")
        app.wallTime = ThreadFixture.now.addingTimeInterval(1.25)
        app.feed.scrollToTop(); app.settle()
        _ = show(app, screen)
        app.wallTime = ThreadFixture.now.addingTimeInterval(60)
        _ = show(app, screen)
        XCTAssertEqual(app.linkVisibility.records(at: app.wallTime).first?.visible ?? -1, 1.25, accuracy: 1e-9)
    }

    func testRelativeTimesFollowTheWallClockWithoutMovingRows() {
        let (app, screen) = Self.actions.open(columns: 50, rows: 40)
        app.wallTime = ThreadFixture.start.addingTimeInterval(5 * 60)
        app.feed.scrollToTop(); app.settle()
        let before = show(app, screen)
        XCTAssertEqual(before[3], " Bo @bo · 5m ago")
        app.wallTime = ThreadFixture.start.addingTimeInterval(3 * 3600)
        let after = show(app, screen)
        XCTAssertEqual(after[3], " Bo @bo · 3h ago")
        XCTAssertEqual(after.filter { !$0.hasSuffix("ago") }, before.filter { !$0.hasSuffix("ago") })
        XCTAssertEqual(after.count, before.count)
    }
}
