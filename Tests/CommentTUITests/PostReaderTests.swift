import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// The thread's post read whole: the header shows its first rows; a click there or Alt-E opens
/// a page with all of it, which scrolls by keys and the wheel and closes with Esc.
final class PostReaderTests: XCTestCase {
    /// A 40-line post: a spoiler on line 7, a link on line 12, ruby on line 20, a last line that says so.
    static let postLines = (1...40).map { n -> String in
        switch n {
        case 7: return "Line 7 hides ||the twist|| in a spoiler."
        case 12: return "Line 12 links [the spec](https://example.com/spec) for you."
        case 20: return "Line 20 reads {東京|とうきょう} with ruby."
        case 40: return "Line 40 is the last line of the post."
        default: return "Line \(n) of the post says a few more words than fit in half a row."
        }
    }

    static var longPost: ThreadFixture { ThreadFixture.numbered(30, body: postLines.joined(separator: "\n")) }

    /// The demo thread, as its author tatiana reads it.
    static var demo: ThreadFixture {
        var fixture = ThreadFixture(title: "demo", users: [ThreadFixture.ann])
        fixture.thread = DemoThread.make()
        fixture.me = "u1"
        return fixture
    }

    /// A pilot at the top of the thread, where the header shows the post.
    private func atThePost(_ fixture: ThreadFixture, columns: Int, rows: Int) -> Pilot {
        let pilot = fixture.pilot(columns: columns, rows: rows)
        pilot.press(.ctrlHome)
        pilot.settle()
        return pilot
    }

    private func text(_ pilot: Pilot) -> String { pilot.lines.joined(separator: "\n") }

    // MARK: Opening and closing

    func testTheDemoPostOpensWholeFromAClickOnItsMarkerAndEscGoesBack() throws {
        let pilot = atThePost(Self.demo, columns: 80, rows: 24)
        let feed = pilot.lines
        let last = " appends to it, and two people posting at once never lose a comment."
        XCTAssertFalse(feed.contains(last), "the header shows the post's first rows only")
        let marker = try XCTUnwrap(feed.firstIndex { $0.hasSuffix(" 12 more lines") }, text(pilot))
        pilot.click(column: DisplayWidth.width(of: feed[marker]) - 3, row: marker)
        XCTAssertEqual(pilot.lines[0], " Scrolling like a phone, in a terminal · @tatiana · 2025-04-17 10:00")
        XCTAssertEqual(pilot.lines[1], " We rebuilt the feed on a real scroll engine: momentum after a wheel burst,")
        XCTAssertTrue(pilot.lines.contains(last), text(pilot))
        XCTAssertEqual(pilot.lines[23], " lines 1–15 of 15 · Esc closes")
        pilot.press(.escape)
        XCTAssertEqual(pilot.lines, feed, "the feed is as it was")
    }

    func testALongPostPagesFromItsFirstLineToItsLastAndBack() {
        let pilot = atThePost(Self.longPost, columns: 80, rows: 24)
        let feed = pilot.lines
        pilot.press(.alt("e"))
        XCTAssertEqual(pilot.lines[0], " Hello ␛[2Jworld · @ann · 2025-04-17 10:00", "the title keeps control characters visible")
        XCTAssertEqual(pilot.lines[1], " Line 1 of the post says a few more words than fit in half a row.")
        XCTAssertEqual(pilot.lines[23], " lines 1–22 of 41 · Esc closes")
        pilot.press(.pageDown)
        XCTAssertEqual(pilot.lines[22], " Line 40 is the last line of the post.")
        XCTAssertEqual(pilot.lines[23], " lines 20–41 of 41 · Esc closes", "the last page ends on the last line")
        pilot.press(.pageUp)
        XCTAssertEqual(pilot.lines[23], " lines 1–22 of 41 · Esc closes")
        pilot.press(KeyPress(.end))
        XCTAssertEqual(pilot.lines[22], " Line 40 is the last line of the post.")
        pilot.press(KeyPress(.home))
        XCTAssertEqual(pilot.lines[1], " Line 1 of the post says a few more words than fit in half a row.")
        pilot.press(.ctrlEnd)
        XCTAssertEqual(pilot.lines[23], " lines 20–41 of 41 · Esc closes")
        pilot.press(.ctrlHome)
        pilot.press(.down)
        pilot.press(.down)
        pilot.press(.up)
        XCTAssertEqual(pilot.lines[1], " Line 2 of the post says a few more words than fit in half a row.")
        pilot.press(KeyPress(.character(" ")))
        XCTAssertEqual(pilot.lines[23], " lines 20–41 of 41 · Esc closes", "Space pages down too, to the end")
        pilot.press(KeyPress(.character("q")))
        XCTAssertEqual(pilot.lines, feed, "q closes it as Esc does")
    }

    func testAtFortyByTenTheHeadersPostRowAndAltEOpenItAndEndShowsTheLastLine() throws {
        let pilot = atThePost(Self.longPost, columns: 40, rows: 10)
        let feed = pilot.lines
        XCTAssertEqual(feed[2], " Line 1 of the post says a few more", "the header has room for one row of the post")
        pilot.click(column: 5, row: 2)
        XCTAssertEqual(pilot.lines[1], " Line 1 of the post says a few more")
        XCTAssertEqual(pilot.lines[9], " lines 1–8 of 78 · Esc closes")
        pilot.press(KeyPress(.character(" ")))
        XCTAssertEqual(pilot.lines[9], " lines 8–15 of 78 · Esc closes", "a page keeps one row of the last in view")
        pilot.press(.ctrlEnd)
        XCTAssertEqual(pilot.lines[8], " Line 40 is the last line of the post.")
        XCTAssertEqual(pilot.lines[9], " lines 71–78 of 78 · Esc closes")
        pilot.press(.escape)
        XCTAssertEqual(pilot.lines, feed)
        pilot.press(.alt("e"))
        XCTAssertEqual(pilot.lines[9], " lines 1–8 of 78 · Esc closes", "Alt-E opens it at its first line")
        pilot.press(.alt("e"))
        XCTAssertEqual(pilot.lines, feed, "and closes it again, as any key of the feed does")
    }

    func testALinkInTheHeadersPostRowsOpensAndTheRestOfTheRowOpensThePost() throws {
        let fixture = ThreadFixture.numbered(3, body: "See [the plan](https://example.com/plan) first.\nThen the rest.")
        let pilot = atThePost(fixture, columns: 60, rows: 20)
        var opened: [String] = []
        pilot.app.openLink = { opened.append($0); return true }
        let row = try XCTUnwrap(pilot.lines.firstIndex(of: " See the plan (example.com) first."), text(pilot))
        pilot.click(column: 7, row: row)
        XCTAssertEqual(opened, ["https://example.com/plan"])
        XCTAssertFalse(pilot.app.showsPostReader)
        pilot.click(column: 30, row: row)
        XCTAssertTrue(pilot.app.showsPostReader)
        XCTAssertEqual(pilot.lines[2], " Then the rest.")
    }

    func testAltEAsksForASelectionWhileTheHeaderIsCollapsed() {
        let pilot = Self.longPost.pilot(columns: 80, rows: 24)
        pilot.press(.alt("e"))
        XCTAssertTrue(pilot.lines[23].hasSuffix("select a comment first (Alt-Up / Alt-Down)"), pilot.lines[23])
        XCTAssertFalse(pilot.lines[23].contains("Esc closes"))
    }

    // MARK: Reading

    func testTheWheelScrollsTheReaderAndNotTheFeedUnderIt() {
        let pilot = atThePost(Self.longPost, columns: 80, rows: 24)
        let feed = pilot.lines
        pilot.press(.alt("e"))
        pilot.wheel(.down, column: 10, row: 5)
        XCTAssertEqual(pilot.lines[1], " Line 4 of the post says a few more words than fit in half a row.")
        XCTAssertEqual(pilot.lines[23], " lines 4–25 of 41 · Esc closes")
        pilot.wheel(.down, column: 10, row: 5)
        pilot.wheel(.up, column: 10, row: 5)
        XCTAssertEqual(pilot.lines[23], " lines 4–25 of 41 · Esc closes")
        pilot.settle()
        pilot.press(.escape)
        XCTAssertEqual(pilot.lines, feed)
    }

    func testResizeWrapsAgainAndKeepsTheTopLine() {
        let pilot = atThePost(Self.longPost, columns: 80, rows: 24)
        pilot.press(.alt("e"))
        for _ in 1...16 { pilot.press(.down) }
        XCTAssertEqual(pilot.lines[1], " Line 17 of the post says a few more words than fit in half a row.")
        for (columns, rows) in [(40, 10), (20, 8), (10, 5), (33, 9), (80, 24)] {
            pilot.app.resize(columns: columns, rows: rows)
            pilot.screen.resize(columns: columns, rows: rows)
            pilot.draw()
            pilot.screen.screen._checkInvariants()
            XCTAssertTrue(pilot.lines.allSatisfy { DisplayWidth.width(of: $0) <= columns })
            if columns >= 20 {
                XCTAssertTrue(pilot.lines[1].hasPrefix(" Line 17 of"), "\(columns)x\(rows):\n" + text(pilot))
            } else {
                XCTAssertTrue(text(pilot).contains("too small"))
            }
        }
        XCTAssertEqual(pilot.lines[23], " lines 17–38 of 41 · Esc closes")
    }

    func testSpoilersStayMaskedUntilRevealedAndLinksAndRubyShowAsInComments() throws {
        let pilot = atThePost(Self.longPost, columns: 80, rows: 24)
        var opened: [String] = []
        pilot.app.openLink = { opened.append($0); return true }
        pilot.press(.alt("e"))
        let spoiler = try XCTUnwrap(pilot.lines.firstIndex(of: " Line 7 hides ░░░░░░░░░ in a spoiler."), text(pilot))
        pilot.press(.alt("s"))
        XCTAssertEqual(pilot.lines[spoiler], " Line 7 hides the twist in a spoiler.")
        pilot.press(.alt("s"))
        XCTAssertEqual(pilot.lines[spoiler], " Line 7 hides ░░░░░░░░░ in a spoiler.", "Alt-S again hides it")
        pilot.click(column: 16, row: spoiler)
        XCTAssertEqual(pilot.lines[spoiler], " Line 7 hides the twist in a spoiler.", "a click reveals it")

        let link = try XCTUnwrap(pilot.lines.firstIndex(of: " Line 12 links the spec (example.com) for you."), text(pilot))
        pilot.click(column: 17, row: link)
        XCTAssertEqual(opened, ["https://example.com/spec"])
        XCTAssertTrue(pilot.lines[23].hasSuffix("opened https://example.com/spec"), pilot.lines[23])
        pilot.press(.alt("o"))
        XCTAssertEqual(opened, ["https://example.com/spec", "https://example.com/spec"], "Alt-O opens the first link on the page")

        let base = try XCTUnwrap(pilot.lines.firstIndex { $0.hasPrefix(" Line 20 reads") }, text(pilot))
        XCTAssertTrue(pilot.lines[base].contains("東京"), pilot.lines[base])
        XCTAssertTrue(pilot.lines[base - 1].contains("とうきょう"), "the reading stands on the row above:\n" + text(pilot))
    }

    // MARK: The page's keys

    func testKeysOtherThanThePagesCloseItAndDoNothingElse() {
        let pilot = atThePost(Self.longPost, columns: 80, rows: 24)
        let feed = pilot.lines
        pilot.press(.alt("e"))
        pilot.type("x")
        XCTAssertEqual(pilot.lines, feed, "x closed the page and typed nothing into the draft")
        pilot.press(.alt("e"))
        pilot.press(.enter)
        XCTAssertEqual(pilot.lines, feed, "Enter closed it and sent nothing")
        XCTAssertEqual(pilot.app.commentCount, 30)
        pilot.press(.alt("e"))
        _ = pilot.send(.paste("copied from the post"))
        XCTAssertEqual(pilot.lines, feed, "a paste closed it and went into no hidden draft")
        XCTAssertEqual(pilot.draft, "")
    }

    func testTheOpenReaderAsksForNoFrames() {
        let pilot = atThePost(Self.longPost, columns: 80, rows: 24)
        pilot.press(.alt("e"))
        pilot.wheel(.down, column: 10, row: 5)
        pilot.press(.pageDown)
        pilot.click(column: 16, row: 3)
        XCTAssertNil(pilot.app.nextDeadline, "no timer, no motion: the loop sleeps until input")
    }

    // MARK: F1

    func testTheKeyPageReachesItsLastRowOnASmallTerminal() {
        let pilot = Self.longPost.pilot(columns: 40, rows: 10)
        pilot.press(.f(1))
        XCTAssertEqual(pilot.lines[0], " Keys")
        XCTAssertFalse(text(pilot).contains("Shift+drag"))
        pilot.press(KeyPress(.end))
        XCTAssertEqual(pilot.lines[7], " Shift+drag          select text with", text(pilot))
        XCTAssertEqual(pilot.lines[8], "                     the terminal", "the last key row, its words wrapped in their column")
        XCTAssertEqual(pilot.lines[9], " lines 50–57 of 57 · Esc or F1 closes")
        pilot.press(.pageUp)
        XCTAssertEqual(pilot.lines[9], " lines 43–50 of 57 · Esc or F1 closes")
        pilot.press(.f(1))
        XCTAssertFalse(text(pilot).contains("Shift+drag"), "F1 closes it")
    }

    func testTheKeyPageShowsEveryRowAtEightyByTwentyFour() {
        let pilot = Self.longPost.pilot(columns: 80, rows: 24)
        pilot.press(.f(1))
        XCTAssertEqual(pilot.lines[1], " Enter · Alt-Enter, Ctrl-J            send (empty: retry, open post) · new line")
        XCTAssertEqual(pilot.lines[22], " Shift+drag                           select text with the terminal")
        XCTAssertEqual(pilot.lines[23], " lines 1–22 of 22 · Esc or F1 closes")
    }
}
