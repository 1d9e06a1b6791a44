import XCTest
import CommentTUITestSupport
@testable import CommentTUI

/// The client's keys as a thread on screen reads them (`CommentApp.clientAction`): Ctrl-K opens
/// the switcher only where the composer's kill to the line's end would kill nothing.
final class ClientKeyTests: XCTestCase {
    func testCtrlKOpensTheSwitcherOnlyWithTheCaretAtTheDraftsEnd() {
        let pilot = ThreadFixture.numbered(3).pilot()
        XCTAssertEqual(pilot.app.clientAction(for: .ctrl("k")), .openSwitcher, "an empty draft has nothing to kill")
        pilot.type("hello world")
        XCTAssertEqual(pilot.app.clientAction(for: .ctrl("k")), .openSwitcher, "the caret at the end kills nothing")
        pilot.press(.ctrl("a"))
        XCTAssertNil(pilot.app.clientAction(for: .ctrl("k")), "with text after the caret Ctrl-K kills, as readline's")
        pilot.press(.ctrl("k"))
        XCTAssertEqual(pilot.draft, "", "the thread kills as before")
        XCTAssertEqual(pilot.app.clientAction(for: .ctrl("k")), .openSwitcher, "and then there is nothing left to kill")
    }

    func testTheOtherClientKeysWorkOverADraft() {
        let pilot = ThreadFixture.numbered(3).pilot()
        pilot.type("draft")
        pilot.press(.ctrl("a"))
        XCTAssertEqual(pilot.app.clientAction(for: .alt("h")), .showHome)
        XCTAssertEqual(pilot.app.clientAction(for: .alt("a")), .nextUnreadThread)
        XCTAssertEqual(pilot.app.clientAction(for: .alt("n")), .nextMentionThread)
        XCTAssertNil(pilot.app.clientAction(for: .ctrl("e")), "a thread's own key stays the thread's")
    }

    func testAChordKeepsItsNextKey() {
        let pilot = ThreadFixture.numbered(3).pilot()
        pilot.press(.ctrl("x"))
        XCTAssertNil(pilot.app.clientAction(for: .alt("h")), "after Ctrl-X the next key is the chord's")
    }
}
