import Foundation
@testable import ThreadModel
import XCTest
@testable import CommentTUI

/// Spoilers keep their links' secrets; only web links go to a browser; `@Handle` ignores case.
final class SpoilerLinkTests: XCTestCase {
    private func makeApp(_ bodies: [String]) -> (CommentApp, HeadlessScreen) {
        var thread = CommentThread(id: "t", title: "Secrets", author: "u1", created: testThreadStart, body: "",
                                   users: [User(id: "u1", handle: "ann", name: "Ann"), User(id: "u2", handle: "Bob", name: "Bob")])
        for (n, body) in bodies.enumerated() {
            thread.append(Comment(id: "c\(n)", author: "u2", created: testThreadStart, body: body))
        }
        let app = CommentApp(thread: thread, me: thread.user(id: "u1")!, threadLabel: "t", columns: 60, rows: 24)
        app.wallTime = testNow
        app.settle()
        return (app, HeadlessScreen(columns: 60, rows: 24))
    }

    private func lines(_ app: CommentApp, _ screen: HeadlessScreen) -> String {
        screen.present(app.render(), full: false)
        return screen.lines.joined(separator: "\n")
    }

    func testAHiddenSpoilerHidesItsLinksHostToo() {
        let (app, screen) = makeApp(["||[the killer is bob](https://bob-did-it.example)||"])
        XCTAssertFalse(lines(app, screen).contains("bob-did-it"))
        _ = app.handle(.key(KeyPress(.up, .alt)))
        _ = app.handle(.key(.alt("s")))
        XCTAssertTrue(lines(app, screen).contains("the killer is bob (bob-did-it.example)"))
    }

    func testAHiddenLinkIsNotOpenedNorCountedAsSeen() {
        let (app, screen) = makeApp(["||[secret](https://hidden.example)|| and [open](https://open.example)"])
        var opened: [String] = []
        app.openLink = { opened.append($0); return true }
        _ = lines(app, screen)
        XCTAssertEqual(app.linkVisibility.records(at: testNow.addingTimeInterval(5)).map(\.url), ["https://open.example"])
        _ = app.handle(.key(KeyPress(.up, .alt)))
        _ = app.handle(.key(.alt("o")))
        XCTAssertEqual(opened, ["https://open.example"], "Alt-O skips the link hidden in a spoiler")
    }

    func testAltSRevealsSpoilersBeyondTheCollapsedRows() {
        let body = (1...20).map { $0 == 18 ? "line ||deep secret||" : "line \($0)" }.joined(separator: "\\\n")
        let (app, screen) = makeApp([body])
        _ = app.handle(.key(KeyPress(.up, .alt)))
        _ = app.handle(.key(.alt("s")))
        _ = app.handle(.key(.alt("e")))
        app.settle()
        _ = app.handle(.key(.ctrl("l")))
        XCTAssertTrue(lines(app, screen).contains("line deep secret"), lines(app, screen))
    }

    func testMentionsIgnoreTheHandlesCase() {
        let (app, screen) = makeApp(["hello @bob and @BOB"])
        let mentions = CommentMarkup.parse("hello @bob and @BOB", users: app.thread.users).runs
            .compactMap { $0.attributes[CommentAttributes.MentionAttribute.self] }
        XCTAssertEqual(mentions, ["u2", "u2"])
        _ = lines(app, screen)
        let row = screen.lines.firstIndex { $0.contains("hello @bob") }!
        let column = Array(screen.lines[row]).firstIndex(of: "@")!
        XCTAssertEqual(screen.screen[column, row].style, Theme.mention)
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
