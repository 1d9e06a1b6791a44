@testable import CommentTUI
import CommentTUITestSupport
import ScrollEngine
import ThreadModel
import XCTest

/// Switching among threads keeps each one as it was: draft, position, read marker; coming back
/// opens nothing again. Home, the switcher and Alt-A/Alt-N reach them; pauses of a second and a
/// minute between inputs, as people pause.
final class ClientSwitchingTests: XCTestCase {
    private let titles = ["Alpha thread", "Beta thread", "Gamma thread", "Delta thread", "Epsilon thread"]

    func testSwitchingAmongFiveThreadsKeepsEachDraftAndPosition() throws {
        let fixture = try ClientFixture(titles: titles)
        let pilot = fixture.pilot
        var drafts: [String: String] = [:]
        var tops: [String: (comment: Int, row: Int)] = [:]
        for (n, title) in titles.enumerated() {
            if n > 0 { fixture.switchTo(String(title.prefix(4))) }
            XCTAssertEqual(pilot.client.place, .thread(ClientFixture.key(title)), title)
            XCTAssertTrue(pilot.lines.joined().contains(title), "\(title) on screen: \(pilot.lines)")
            // Each thread scrolled its own way, and a draft of its own.
            for _ in 0...(n * 2) { pilot.press(.ctrlUp) }
            pilot.settle()
            pilot.type("draft for \(title)")
            drafts[title] = "draft for \(title)"
            tops[title] = pilot.app.feedTop
            pilot.idle(for: n % 2 == 0 ? 1 : 60)
        }
        // Back through them in another order, by the switcher and by home.
        for title in titles.reversed() {
            fixture.switchTo(String(title.prefix(4)))
            pilot.idle(for: 1)
            XCTAssertEqual(pilot.client.place, .thread(ClientFixture.key(title)))
            XCTAssertEqual(pilot.draft, drafts[title], title)
            XCTAssertEqual(pilot.app.feedTop.comment, tops[title]?.comment, title)
            XCTAssertEqual(pilot.app.feedTop.row, tops[title]?.row, title)
            XCTAssertEqual(fixture.openCount(title), 1, "\(title) opened once")
        }
        XCTAssertEqual(pilot.client.openSessions.count, titles.count)
    }

    func testHomeIsOneKeyAwayAndEnterOpensTheSelectedThread() throws {
        let fixture = try ClientFixture(titles: titles)
        let pilot = fixture.pilot
        pilot.type("half a thought")
        pilot.press(KeyPress(.character("h"), .alt))
        XCTAssertEqual(pilot.client.place, .home)
        let screen = pilot.lines.joined(separator: "\n")
        for title in titles { XCTAssertTrue(screen.contains(title), "\(title) listed:\n\(screen)") }
        pilot.idle(for: 60)
        // Typing filters; Enter opens the best match.
        pilot.type("gam")
        pilot.press(.enter)
        pilot.takeUpdates()
        XCTAssertEqual(pilot.client.place, .thread(ClientFixture.key("Gamma thread")))
        pilot.press(KeyPress(.character("h"), .alt))
        pilot.type("alp")
        pilot.press(.enter)
        XCTAssertEqual(pilot.client.place, .thread(ClientFixture.key("Alpha thread")))
        XCTAssertEqual(pilot.draft, "half a thought")
    }

    func testCtrlKKillsToTheLineEndWhileTextFollowsTheCaretElseOpensTheSwitcher() throws {
        let fixture = try ClientFixture(titles: titles)
        let pilot = fixture.pilot
        pilot.type("keep this, drop that")
        for _ in 0..<9 { pilot.press(.left) }
        pilot.press(KeyPress(.character("k"), .ctrl))
        XCTAssertEqual(pilot.draft, "keep this, ")
        XCTAssertNil(pilot.client.switcher)
        pilot.idle(for: 1)
        pilot.press(KeyPress(.character("k"), .ctrl))
        XCTAssertNotNil(pilot.client.switcher)
        pilot.press(.escape)
        XCTAssertNil(pilot.client.switcher)
        XCTAssertEqual(pilot.draft, "keep this, ")
    }

    func testAltAGoesToTheThreadWhereCommentsArrivedAndAltNToTheOneThatMentionsTheReader() throws {
        let fixture = try ClientFixture(titles: titles)
        let pilot = fixture.pilot
        fixture.switchTo("Beta")
        fixture.switchTo("Delta")
        fixture.switchTo("Alpha")
        pilot.idle(for: 60)
        // Bo writes in Beta, and calls for Ann in Delta, while Alpha is on screen.
        let later = ThreadFixture.now.addingTimeInterval(120)
        fixture.source("Beta thread")?.deliver(.commentsAppended([
            Comment(id: "b1", author: ThreadFixture.bo.id, created: later, body: "news in beta")]))
        fixture.source("Delta thread")?.deliver(.commentsAppended([
            Comment(id: "d1", author: ThreadFixture.bo.id, created: later, body: "@ann look at this")]))
        pilot.takeUpdates()
        pilot.press(KeyPress(.character("h"), .alt))
        let screen = pilot.lines.joined(separator: "\n")
        XCTAssertTrue(screen.contains("news in beta") || screen.contains("look at this"), screen)
        pilot.press(KeyPress(.character("n"), .alt))
        XCTAssertEqual(pilot.client.place, .thread(ClientFixture.key("Delta thread")))
        pilot.idle(for: 1)
        pilot.press(KeyPress(.character("a"), .alt))
        XCTAssertEqual(pilot.client.place, .thread(ClientFixture.key("Beta thread")))
    }
}

/// Home's own keys: F1's page over it, quitting from it.
final class ClientHomeKeyTests: XCTestCase {
    func testF1ShowsTheKeysOverHomeAndEscGoesBackToTheList() throws {
        let fixture = try ClientFixture(titles: ["Alpha thread", "Beta thread"], startsAtHome: true, columns: 80, rows: 24)
        let pilot = fixture.pilot
        XCTAssertEqual(pilot.client.place, .home)
        XCTAssertTrue(pilot.lines.joined().contains("Beta thread"))
        pilot.press(.f(1))
        XCTAssertTrue(pilot.lines.joined().contains("home · switcher · next unread/@ · verify"), pilot.lines.joined(separator: "\n"))
        XCTAssertFalse(pilot.lines.joined().contains("Beta thread"))
        pilot.idle(for: 60)
        pilot.press(.escape)
        XCTAssertTrue(pilot.lines.joined().contains("Beta thread"))
        XCTAssertEqual(pilot.press(KeyPress(.character("c"), .ctrl)), [.quit])
    }
}
