import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// Typing a mention as people type: accents typed as their own keystroke, `@` after punctuation,
/// a second `@`, clicks on a token, and a composer that wraps at spaces.
final class MentionTypingTests: XCTestCase {
    private static var fixture: ThreadFixture {
        ThreadFixture(title: "Typing", users: [
            User(id: "me", handle: "tess", name: "Tess"),
            User(id: "j", handle: "jose", name: "José Núñez"),
            User(id: "k", handle: "kofi", name: "Kofi Mensah"),
        ])
    }

    private func type(_ text: String, _ app: CommentApp) {
        for character in text { _ = app.handle(.key(character == "\t" ? KeyPress(.tab) : KeyPress(.character(character)))) }
    }

    func testAnAccentTypedOnItsOwnKeepsTheListOpen() {
        let (app, _) = Self.fixture.open(columns: 60, rows: 20)
        type("@Jose", app)
        XCTAssertTrue(app.isMentionListOpen)
        // A dead key's combining acute arrives as its own keystroke and joins the "e".
        _ = app.handle(.key(KeyPress(.character("\u{301}"))))
        XCTAssertTrue(app.isMentionListOpen, "still typing the name")
        XCTAssertEqual(app.mentionQuery, "Jose\u{301}")
        XCTAssertEqual(app.mentionNames?.first, "jose")
    }

    func testASecondAtClosesTheList() {
        let (app, _) = Self.fixture.open(columns: 60, rows: 20)
        type("@", app)
        XCTAssertTrue(app.isMentionListOpen)
        type("@", app)
        XCTAssertFalse(app.isMentionListOpen, "`@@` lists no one")
    }

    func testTheListOpensAfterPunctuationAsTheParserReadsMentions() {
        for opener in ["(", "\"", "["] {
            let (app, _) = Self.fixture.open(columns: 60, rows: 20)
            type("see \(opener)@", app)
            XCTAssertTrue(app.isMentionListOpen, "after \(opener)")
        }
        let (app, _) = Self.fixture.open(columns: 60, rows: 20)
        type("mail@", app)
        XCTAssertFalse(app.isMentionListOpen, "not inside a word")
    }

    func testAClickOnAMentionsSecondHalfPutsTheCaretAfterIt() {
        let (app, _) = Self.fixture.open(columns: 60, rows: 20)
        type("hi @kof\t", app)
        _ = app.handle(.key(KeyPress(.character("x"))))
        XCTAssertEqual(app.draft, "hi @kofi x")
        let row = app.composerRect.row, prompt = ComposerView.promptWidth
        // "@kofi" takes columns 3…7 of the text: a click on "f" is nearer its end.
        for (column, expected) in [(4, 3), (7, 8)] {
            _ = app.handle(.mouse(MouseEvent(.left, .press, column: prompt + column, row: row)))
            _ = app.handle(.mouse(MouseEvent(.left, .release, column: prompt + column, row: row)))
            XCTAssertEqual(app.caretOffset, expected, "a click on column \(column)")
        }
    }

    /// The space between a token and text typed against it shows as it is typed, undo takes it
    /// with the text, and the comment sent is what the composer showed.
    func testTheComposerShowsTheSpaceItSends() {
        let pilot = Self.fixture.pilot(columns: 40, rows: 12)
        let row = pilot.composerRect.row
        pilot.type("@kof")
        pilot.press(.tab)
        pilot.press(.backspace)                 // the space the list put after the token
        pilot.type("ok")
        XCTAssertEqual(pilot.lines[row], "› @kofi ok")
        pilot.feed("\u{1F}")                    // Ctrl-_: undo
        XCTAssertEqual(pilot.lines[row], "› @kofi")
        pilot.feed("\u{1B}_")                   // Alt-_: redo
        XCTAssertEqual(pilot.lines[row], "› @kofi ok")
        pilot.press(.enter)
        XCTAssertEqual(pilot.app.allComments.last?.body, "@kofi ok")
        // A letter typed right before a token.
        pilot.type("@kof")
        pilot.press(.tab)
        pilot.press(KeyPress(.home))
        pilot.type("Z")
        XCTAssertEqual(pilot.lines[row], "› Z @kofi")
        pilot.press(.enter)
        XCTAssertEqual(pilot.app.allComments.last?.body, "Z @kofi")
    }

    func testTheComposerWrapsAtSpacesAndNeverSplitsAMention() {
        let (app, screen) = Self.fixture.open(columns: 24, rows: 20)
        type("we are running late @kof\t", app)
        type("again", app)
        screen.show(app)
        let composer = app.composerRect
        let rows = (composer.row..<composer.maxRow).map { screen.plainLines[$0] }.filter { !$0.isEmpty }
        XCTAssertFalse(rows.contains { $0.hasSuffix("runn") || $0.hasSuffix("@ko") }, "\(rows)")
        XCTAssertTrue(rows.contains { $0.contains("@kofi") }, "the token stays on one row: \(rows)")
    }
}
