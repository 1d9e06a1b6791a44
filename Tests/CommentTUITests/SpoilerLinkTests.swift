import Foundation
@testable import ThreadModel
import XCTest
@testable import CommentTUI
import CommentTUITestSupport

/// Spoilers keep their links' secrets; only web links go to a browser; `@Handle` ignores case.
final class SpoilerLinkTests: XCTestCase {
    /// A thread of bob's comments with these bodies, read by ann.
    private func secrets(_ bodies: [String]) -> ThreadFixture {
        ThreadFixture(title: "Secrets", users: [ThreadFixture.ann, User(id: "u2", handle: "Bob", name: "Bob")]).adding(bodies, by: "u2")
    }

    private func lines(_ app: CommentApp, _ screen: HeadlessScreen) -> String {
        screen.show(app)
        return screen.lines.joined(separator: "\n")
    }

    func testAHiddenSpoilerHidesItsLinksHostToo() {
        let (app, screen) = secrets(["||[the killer is bob](https://bob-did-it.example)||"]).open(columns: 60, rows: 24)
        XCTAssertFalse(lines(app, screen).contains("bob-did-it"))
        _ = app.handle(.key(KeyPress(.up, .alt)))
        _ = app.handle(.key(.alt("s")))
        app.settle()   // past the dissolve
        XCTAssertTrue(lines(app, screen).contains("the killer is bob (bob-did-it.example)"))
    }

    func testAHiddenLinkIsNotOpenedNorCountedAsSeen() {
        let (app, screen) = secrets(["||[secret](https://hidden.example)|| and [open](https://open.example)"]).open(columns: 60, rows: 24)
        var opened: [String] = []
        app.openLink = { opened.append($0); return true }
        _ = lines(app, screen)
        XCTAssertEqual(app.linkVisibility.records(at: ThreadFixture.now.addingTimeInterval(5)).map(\.url), ["https://open.example"])
        _ = app.handle(.key(KeyPress(.up, .alt)))
        _ = app.handle(.key(.alt("o")))
        XCTAssertEqual(opened, ["https://open.example"], "Alt-O skips the link hidden in a spoiler")
    }

    func testAltSRevealsSpoilersBeyondTheCollapsedRows() {
        let body = (1...20).map { $0 == 18 ? "line ||deep secret||" : "line \($0)" }.joined(separator: "\\\n")
        let (app, screen) = secrets([body]).open(columns: 60, rows: 24)
        _ = app.handle(.key(KeyPress(.up, .alt)))
        _ = app.handle(.key(.alt("s")))
        _ = app.handle(.key(.alt("e")))
        app.settle()
        _ = app.handle(.key(.ctrl("l")))
        XCTAssertTrue(lines(app, screen).contains("line deep secret"), lines(app, screen))
    }

    func testMentionsIgnoreTheHandlesCase() {
        let (app, screen) = secrets(["hello @bob and @BOB"]).open(columns: 60, rows: 24)
        let mentions = CommentMarkup.parse("hello @bob and @BOB", users: app.threadUsers).runs
            .compactMap { $0.attributes[CommentAttributes.MentionAttribute.self] }
        XCTAssertEqual(mentions, ["u2", "u2"])
        _ = lines(app, screen)
        let row = screen.lines.firstIndex { $0.contains("hello @bob") }!
        let column = Array(screen.lines[row]).firstIndex(of: "@")!
        XCTAssertEqual(screen.screen[column, row].style, Theme.mention)
    }

    /// `--visibility-log` counts the thread's post, shown in the header, as it counts comments.
    func testLinksInThePostAreRecordedAsSeen() {
        let fixture = ThreadFixture(title: "Plans", body: "read [the plan](https://plan.example) first\n\n||[no](https://hidden.example)||",
                                    users: [ThreadFixture.ann, User(id: "u2", handle: "Bob", name: "Bob")])
        let (app, screen) = fixture.adding(["ok"], by: "u2").open(columns: 60, rows: 24)
        XCTAssertTrue(lines(app, screen).contains("read the plan (plan.example) first"))
        let records = app.linkVisibility.records(at: ThreadFixture.now.addingTimeInterval(5))
        XCTAssertEqual(records.map { "\($0.commentID) \($0.url)" }, ["t https://plan.example"])
    }

    func testOnlyWebAndMailLinksGoToABrowser() {
        for url in ["https://example.com/x", "http://a.b", "mailto:ann@example.com", "ftp://files.example/x"] {
            XCTAssertTrue(LinkOpener.isSafeToOpen(url), url)
        }
        for url in ["--gpu-launcher=touch /tmp/x", "file:///etc/passwd", "javascript:alert(1)", "docs/readme", "https://", "http://a b"] {
            XCTAssertFalse(LinkOpener.isSafeToOpen(url), url)
        }
    }
}
