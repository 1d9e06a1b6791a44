import Foundation
import XCTest
@testable import ScrollEngine
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// The @mention list over the feed, driven with keys and SGR mouse reports.
final class MentionPickerFlowTests: XCTestCase {
    /// 40 comments, each with a spoiler; 30 users whose handles start with "ma"; tess reads.
    static var mentions: ThreadFixture {
        var users = [User(id: "me", handle: "tess", name: "Tess")]
        users += (0..<30).map { User(id: "m\($0)", handle: "ma\($0)", name: "Mara \($0)") }
        users.append(User(id: "z", handle: "zoe", name: "Zoë Ångström"))
        var fixture = ThreadFixture(title: "Mentions", users: users)
        for i in 0..<40 {
            fixture.add(Comment(id: "c\(i)", author: "m\(i % 30)", created: ThreadFixture.start.addingTimeInterval(Double(i) * 60),
                                body: "comment \(i) ||secret \(i)||"))
        }
        return fixture
    }

    func send(_ bytes: String, to app: CommentApp) {
        var decoder = InputDecoder()
        for event in decoder.feed(Array(bytes.utf8)) + decoder.flush() { _ = app.handle(event) }
    }

    /// An SGR mouse report at a 0-based cell.
    func mouse(_ button: Int, column: Int, row: Int, release: Bool = false) -> String {
        "\u{1B}[<\(button);\(column + 1);\(row + 1)\(release ? "m" : "M")"
    }

    func picker(_ app: CommentApp) throws -> MentionPicker { try XCTUnwrap(app.mentions.picker, "the list is open") }

    func testTypingAtOpensTheListAboveTheComposerAndEnterInserts() throws {
        let (app, screen) = Self.mentions.open(columns: 60, rows: 24)
        send("hi @ma1", to: app)
        let list = try picker(app)
        XCTAssertEqual(list.query, "ma1")
        XCTAssertEqual(list.results.total, 12, "ma1, ma10…ma19, and ma21 as a fuzzy match")
        screen.show(app)
        let rule = app.composerRuleRow
        // The list stands on the composer: its last row is the feed's last row.
        XCTAssertEqual(list.frame.maxRow, rule)
        let titleRow = list.frame.row + list.visibleInsetRows
        XCTAssertTrue(screen.plainLines[titleRow].hasPrefix("─ @ma1 · 12 users"), screen.plainLines[titleRow])
        // Names line up after the longest handle shown; ties go to the latest writer (ma19).
        XCTAssertTrue(screen.plainLines[titleRow + 1].hasPrefix(" ▸ @ma1   Mara 1"), screen.plainLines[titleRow + 1])
        XCTAssertTrue(screen.plainLines[titleRow + 2].hasPrefix("   @ma19  Mara 19"), screen.plainLines[titleRow + 2])
        send("\u{1B}[B", to: app)               // Down
        let chosen = try XCTUnwrap(list.highlightedUser)
        send("\r", to: app)
        XCTAssertFalse(app.isMentionListOpen)
        XCTAssertEqual(app.draft, "hi @\(chosen.handle) ")
        XCTAssertEqual(app.draftDocument.mentionedUserIDs, [chosen.id])
        XCTAssertEqual(app.draftMarkdown, "hi @\(chosen.handle) ")
    }

    /// At 20x8 long handles and names end in `…`, every name starts in one column, and with no
    /// one to insert the list offers no keys that insert.
    func testAt20x8NamesStayInOneColumnAndNoMatchOffersNoInsertKeys() {
        let users = [User(id: "me", handle: "tess", name: "Tess"), User(id: "b", handle: "bartholomew", name: "Bartholomew Oyelaran"),
                     User(id: "a", handle: "al", name: "Al Reyes"), User(id: "c", handle: "christabel", name: "Christabel Ng")]
        let pilot = ThreadFixture(title: "Plan", users: users).pilot(columns: 20, rows: 8)
        pilot.type("@")
        pilot.press(.down)
        XCTAssertEqual(Array(pilot.lines[3...5]), [
            "   @al      Al Reyes",
            " ▸ @barth…  Barthol…",
            "────────────────────",
        ])
        pilot.type("zz")
        XCTAssertEqual(pilot.lines[4], "─ no one matches ───")
    }

    func testShortListSitsJustAboveTheComposer() throws {
        let (app, _) = Self.mentions.open(columns: 60, rows: 24)
        send("@zo", to: app)
        let list = try picker(app)
        XCTAssertEqual(list.results.matches.map(\.user.handle), ["zoe"])
        XCTAssertEqual(list.frame.height - list.visibleInsetRows, 2, "a title and one user")
    }

    func testWheelInTheTransparentRegionScrollsTheFeedNotTheList() throws {
        let (app, _) = Self.mentions.open(columns: 60, rows: 24)
        send("@ma", to: app)
        let list = try picker(app)
        let insetRow = list.frame.row + 1
        XCTAssertLessThan(1, list.visibleInsetRows)
        let feedBefore = app.feedOffset, listBefore = list.model.contentOffset
        send(mouse(64, column: 10, row: insetRow), to: app)
        app.settle()
        XCTAssertLessThan(app.feedOffset, feedBefore, "the feed under the inset moved")
        XCTAssertEqual(list.model.contentOffset, listBefore, "the list did not")
        XCTAssertTrue(app.isMentionListOpen, "the list stays open")
    }

    func testWheelOnARowScrollsTheListAndShrinksTheTransparentRegion() throws {
        let (app, _) = Self.mentions.open(columns: 60, rows: 24)
        send("@ma", to: app)
        let list = try picker(app)
        let insetBefore = list.visibleInsetRows, areaBefore = list.hitShape.area
        let feedBefore = app.feedOffset
        send(mouse(65, column: 10, row: list.frame.maxRow - 1), to: app)
        app.settle()
        XCTAssertLessThan(list.visibleInsetRows, insetBefore)
        XCTAssertGreaterThan(list.hitShape.area, areaBefore, "the hit shape follows the inset")
        XCTAssertEqual(app.feedOffset, feedBefore)
        list._checkInvariants()
        // A wheel event where the inset was is now the list's.
        XCTAssertEqual(app.hitLayer(column: 10, row: list.frame.row + insetBefore - 1)?.layer, .picker)
    }

    func testClickOnARowInsertsThatUser() throws {
        let (app, _) = Self.mentions.open(columns: 60, rows: 24)
        send("@ma", to: app)
        let list = try picker(app)
        let row = list.frame.maxRow - 1
        let item = try XCTUnwrap(list.item(atScreenRow: row))
        let user = list.results.matches[item].user
        send(mouse(0, column: 8, row: row) + mouse(0, column: 8, row: row, release: true), to: app)
        XCTAssertFalse(app.isMentionListOpen)
        XCTAssertEqual(app.draft, "@\(user.handle) ")
        XCTAssertEqual(app.draftDocument.mentionedUserIDs, [user.id])
    }

    func testADragOnTheListScrollsItAndInsertsNoOne() throws {
        let (app, _) = Self.mentions.open(columns: 60, rows: 24)
        send("@ma", to: app)
        let list = try picker(app)
        let row = list.frame.maxRow - 1
        send(mouse(0, column: 8, row: row), to: app)
        XCTAssertTrue(app.isMentionListOpen, "a press alone inserts no one")
        let before = list.model.contentOffset
        send(mouse(32, column: 8, row: row - 3) + mouse(0, column: 8, row: row - 3, release: true), to: app)
        XCTAssertTrue(app.isMentionListOpen, "a drag is a scroll, not a pick")
        XCTAssertEqual(app.draft, "@ma")
        XCTAssertGreaterThan(list.model.contentOffset, before, "the list scrolled with the pointer")
    }

    /// The wheel scrolls the list, not the highlight: Tab inserts the user highlighted before,
    /// wherever the list was scrolled to, and Up/Down go on from that user.
    func testTheWheelKeepsTheHighlightedUser() throws {
        let (app, screen) = Self.mentions.open(columns: 60, rows: 24)
        send("@ma", to: app)
        let list = try picker(app)
        send("\u{1B}[B\u{1B}[B", to: app)      // Down, Down
        let chosen = try XCTUnwrap(list.highlightedUser)
        XCTAssertEqual(list.highlighted, 2)
        for wheel in [65, 65, 65, 65, 65, 65, 65, 65, 64] {
            send(mouse(wheel, column: 10, row: list.frame.maxRow - 1), to: app)
            app.advance(to: app.now + 0.3)
            screen.show(app)
            XCTAssertEqual(list.highlighted, 2, "the wheel moved the list, not the highlight")
        }
        app.settle()
        screen.show(app)
        let shown = (0..<list.frame.height).compactMap { list.model.item(atViewportRow: $0) }
        XCTAssertFalse(shown.contains(2), "scrolled past the highlight: \(shown)")
        XCTAssertEqual(list.highlightedUser, chosen)
        send("\t", to: app)
        XCTAssertEqual(app.draftDocument.mentionedUserIDs, [chosen.id], "Tab inserts the user highlighted, not the first row shown")
        // Down after the wheel goes on from the highlighted user and brings it into view.
        send("@ma", to: app)
        let again = try picker(app)
        for _ in 0..<6 { send(mouse(65, column: 10, row: again.frame.maxRow - 1), to: app) }
        app.settle()
        send("\u{1B}[B", to: app)
        XCTAssertEqual(again.highlighted, 1)
        let nowShown = (0..<again.frame.height).compactMap { again.model.item(atViewportRow: $0) }
        XCTAssertTrue(nowShown.contains(1), "highlight 1 on screen \(nowShown)")
    }

    func testInASmallTerminalTheListShowsUsersAndTheHighlight() throws {
        let (app, screen) = Self.mentions.open(columns: 20, rows: 8)
        send("@ma", to: app)
        screen.show(app)
        XCTAssertTrue(screen.plainLines.contains { $0.contains("▸ @ma") }, screen.plainLines.joined(separator: "\n"))
    }

    func testTheLayerOnTopTakesTheKeys() throws {
        let (app, _) = Self.mentions.open(columns: 60, rows: 24)
        send("@ma", to: app)
        _ = app.handle(.key(KeyPress(.function(1))))
        XCTAssertTrue(app.showsHelp)
        _ = app.handle(.key(KeyPress(.enter)))
        XCTAssertEqual(app.draft, "@ma", "Enter under the help page inserts no one unseen, sends nothing")
        XCTAssertFalse(app.showsHelp, "it only closed the page")
        XCTAssertTrue(app.isMentionListOpen)
        _ = app.handle(.key(KeyPress(.function(1))))
        _ = app.handle(.key(KeyPress(.escape)))
        XCTAssertFalse(app.showsHelp, "Esc closes the help page, the layer on top")
        XCTAssertTrue(app.isMentionListOpen, "and not the list under it")
        // Search covers the feed's matches: the list closes.
        _ = app.handle(.key(KeyPress(.character("s"), .ctrl)))
        XCTAssertTrue(app.isSearchOpen)
        XCTAssertFalse(app.isMentionListOpen)
        // The "N new" marker stays above an open list.
        let (other, screen) = Self.mentions.open(columns: 60, rows: 24)
        _ = other.handle(.key(KeyPress(.pageUp))); other.settle()
        send("@ma", to: other)
        let list = try picker(other)
        other.receive([.commentsAppended([Comment(id: "n1", author: "m1", created: ThreadFixture.now, body: "new")])])
        screen.show(other)
        let markerRow = try XCTUnwrap(screen.plainLines.firstIndex { $0.contains("↓ 1 new") }, screen.plainLines.joined(separator: "\n"))
        XCTAssertLessThan(markerRow, list.frame.row + list.visibleInsetRows, "above the list, not behind it")
    }

    func testClickInTheInsetRevealsASpoilerUnderneath() throws {
        let (app, screen) = Self.mentions.open(columns: 60, rows: 24)
        send("@ma", to: app)
        let list = try picker(app)
        screen.show(app)
        let insetRows = list.frame.row..<(list.frame.row + list.visibleInsetRows)
        let row = try XCTUnwrap(insetRows.first { screen.plainLines[$0].contains("░") }, "a hidden spoiler under the inset")
        let column = try XCTUnwrap(Array(screen.plainLines[row]).firstIndex(of: "░"))
        XCTAssertEqual(app.hitLayer(column: column, row: row)?.layer, .feed)
        XCTAssertEqual(app.hitLayer(column: column, row: row)?.throughPickerInset, true)
        send(mouse(0, column: column, row: row) + mouse(0, column: column, row: row, release: true), to: app)
        app.advance(to: app.now + 1)   // past the dissolve
        screen.show(app)
        XCTAssertTrue(screen.plainLines[row].contains("secret"), "revealed: \(screen.plainLines[row])")
        XCTAssertTrue(app.isMentionListOpen, "the list stays open")
    }

    func testBackspaceAfterAMentionDeletesItWhole() throws {
        let (app, _) = Self.mentions.open(columns: 60, rows: 24)
        send("@zo\t", to: app)
        XCTAssertEqual(app.draft, "@zoe ")
        send("\u{7F}", to: app)
        XCTAssertEqual(app.draft, "@zoe")
        send("\u{7F}", to: app)
        XCTAssertEqual(app.draft, "")
    }

    func testKeysMoveTheHighlightAndScrollItIntoView() throws {
        let (app, _) = Self.mentions.open(columns: 60, rows: 24)
        send("@ma", to: app)
        let list = try picker(app)
        send(String(repeating: "\u{1B}[B", count: 12), to: app)
        XCTAssertEqual(list.highlighted, 12)
        let row = try XCTUnwrap((list.frame.row..<list.frame.maxRow).first { list.item(atScreenRow: $0) == 12 }, "highlight in view")
        XCTAssertGreaterThanOrEqual(row, list.frame.row)
        send("\u{1B}[6~", to: app)              // PageDown
        XCTAssertEqual(list.highlighted, 12 + list.pageRows)
        send("\u{1B}[5~\u{1B}[5~\u{1B}[5~\u{1B}[5~", to: app)
        XCTAssertEqual(list.highlighted, 0)
    }

    func testEscClosesAndASpaceWithNoMatchCloses() throws {
        let (app, _) = Self.mentions.open(columns: 60, rows: 24)
        send("@ma", to: app)
        send("\u{1B}", to: app)
        XCTAssertFalse(app.isMentionListOpen)
        send("1", to: app)
        XCTAssertFalse(app.isMentionListOpen, "Esc closed it for this token")
        send(" @zo", to: app)
        XCTAssertTrue(app.isMentionListOpen)
        send("x ", to: app)
        XCTAssertFalse(app.isMentionListOpen, "a space with no match closes")
        send(" @mara ", to: app)
        XCTAssertTrue(app.isMentionListOpen, "a space while a name still matches keeps it open")
        send("\u{1B}[D\u{1B}[D\u{1B}[D\u{1B}[D\u{1B}[D\u{1B}[D", to: app)
        XCTAssertFalse(app.isMentionListOpen, "the caret left the token")
    }

    func testDiacriticInsensitiveMatch() throws {
        let (app, _) = Self.mentions.open(columns: 60, rows: 24)
        send("@angst", to: app)
        XCTAssertEqual(try picker(app).results.matches.first?.user.handle, "zoe")
    }

    func testHitTestInspectorShadesLayersAndNamesTheOneUnderThePointer() throws {
        let (app, screen) = Self.mentions.open(columns: 80, rows: 24)
        send("@ma", to: app)
        let list = try picker(app)
        send("\u{1B}OQ", to: app)               // F2
        let insetRow = list.frame.row + 1
        send(mouse(35, column: 5, row: insetRow), to: app)
        let frame = app.render()
        XCTAssertTrue(frame.reportsPointerMotion)
        screen.present(frame, full: false)
        XCTAssertEqual(screen.screen[5, insetRow].style.background, Theme.hitPassThrough)
        XCTAssertEqual(screen.screen[5, list.frame.maxRow - 1].style.background, Theme.hitShade(.picker))
        XCTAssertEqual(screen.screen[5, app.composerRect.row].style.background, Theme.hitShade(.composer))
        XCTAssertEqual(screen.screen[5, 0].style.background, Theme.hitShade(.header))
        XCTAssertTrue(screen.plainLines.last!.hasSuffix(" · F2: feed, via the list's inset"), screen.plainLines.last!)
        send(mouse(35, column: 5, row: list.frame.maxRow - 1), to: app)
        screen.show(app)
        XCTAssertTrue(screen.plainLines.last!.hasSuffix(" · F2: mention list"))
        send("\u{1B}OQ", to: app)
        XCTAssertFalse(app.render().reportsPointerMotion)
    }
}

/// The list follows the token being typed, and nothing else.
extension MentionPickerFlowTests {
    func testAnAtTypedAgainAfterEscOpensTheListAgain() throws {
        let (app, _) = Self.mentions.open(columns: 60, rows: 24)
        send("@ma\u{1B}", to: app)
        XCTAssertFalse(app.isMentionListOpen)
        send("\u{7F}\u{7F}\u{7F}@ma", to: app)
        XCTAssertEqual(try picker(app).query, "ma", "a new @ at the same place opens it again")
        send("\r", to: app)
        send("\r", to: app)                      // sends "@ma… "
        send("@", to: app)
        XCTAssertTrue(app.isMentionListOpen, "and in the next draft")
    }

    func testMovingTheCaretOrClickingInTheComposerClosesTheList() throws {
        let (app, _) = Self.mentions.open(columns: 60, rows: 24)
        send("hello @ma", to: app)
        send("\u{1B}[D", to: app)
        XCTAssertFalse(app.isMentionListOpen, "Left")
        send("\u{1B}[C @zo", to: app)
        XCTAssertTrue(app.isMentionListOpen)
        let row = app.composerRect.row
        send(mouse(0, column: 4, row: row) + mouse(0, column: 4, row: row, release: true), to: app)
        XCTAssertFalse(app.isMentionListOpen, "a click elsewhere in the draft")
        send("\t", to: app)
        XCTAssertFalse(app.draft.contains("@zoe"), "Tab no longer inserts for the old token")
    }

    func testEnterWithNoMatchSends() throws {
        let (app, _) = Self.mentions.open(columns: 60, rows: 24)
        send("ping @qqq", to: app)
        XCTAssertEqual(try picker(app).results.total, 0)
        send("\r", to: app)
        XCTAssertEqual(app.memorySource.sent.map(\.body), ["ping @qqq"])
        XCTAssertFalse(app.isMentionListOpen)
    }

    func testNewCommentsReorderTheListByWhoWroteLast() throws {
        let (app, _) = Self.mentions.open(columns: 60, rows: 24)
        send("@ma2", to: app)
        let before = try picker(app).results.matches.map(\.user.handle)
        XCTAssertEqual(before.first, "ma2")
        send("\u{1B}", to: app)
        // ma20 writes the newest comment: among the prefix matches after the exact handle, first.
        let comment = Comment(id: "new", author: "m20", created: ThreadFixture.start.addingTimeInterval(9_999), body: "hi")
        app.receive(fileUpdates([.comment(comment)]))
        send("\u{7F}\u{7F}\u{7F}\u{7F}@ma2", to: app)
        XCTAssertEqual(try picker(app).results.matches.prefix(2).map(\.user.handle), ["ma2", "ma20"])
    }
}
