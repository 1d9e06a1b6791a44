import XCTest
import ThreadModel
import CommentTUITestSupport
@testable import CommentTUI

/// The reaction picker's choices and what its keys pick.
final class ReactionPickerTests: XCTestCase {
    func testRecentKeysComeFirstThenTheDefaultsEachOnceAtMostNine() {
        let picker = ReactionPicker(commentID: "c1", recent: ["🎉", "🚀"])
        XCTAssertEqual(picker.choices, ["🎉", "🚀", "👍", "❤️", "😂", "👀"])
        let many = ReactionPicker(commentID: "c1", recent: (1...12).map { "k\($0)" })
        XCTAssertEqual(many.choices.count, ReactionPicker.maxChoices)
    }

    func testADigitPicksWhileNothingIsTypedElseItIsTyped() {
        var picker = ReactionPicker(commentID: "c1", recent: [])
        XCTAssertEqual(picker.type("2"), "❤️")
        XCTAssertNil(picker.type("9"), "no ninth choice: typed")
        XCTAssertEqual(picker.query, "9")
        XCTAssertNil(picker.type("1"), "something typed: a digit is typed too")
        XCTAssertEqual(picker.chosen, .success("91"))
    }

    func testEnterTakesAShortcodesEmojiOrTheFirstChoiceAndRefusesAnUnknownShortcode() {
        var picker = ReactionPicker(commentID: "c1", recent: [])
        XCTAssertEqual(picker.chosen, .success("👍"), "nothing typed: the first choice")
        for character in ":Tada:" { _ = picker.type(character) }
        XCTAssertEqual(picker.chosen, .success("🎉"))
        var unknown = ReactionPicker(commentID: "c1", recent: [])
        for character in ":nope:" { _ = unknown.type(character) }
        XCTAssertEqual(unknown.chosen, .failure(ReactionPicker.PickerRefusal("no emoji is called :nope:")))
        var long = ReactionPicker(commentID: "c1", recent: [])
        for _ in 0..<100 { _ = long.type("x") }
        XCTAssertEqual(long.query.count, ReactionPicker.longestQuery, "a key, not a message")
    }

    /// The picker hides the draft, so it is modal: a key it does not take closes it and never
    /// edits the draft (Ctrl-U, Delete, arrows, Ctrl-D), and a paste goes into its query.
    func testWithThePickerOpenKeysAndPastesLeaveTheHiddenDraftAlone() {
        let pilot = ThreadFixture.numbered(3).pilot(columns: 60, rows: 12)
        pilot.type("my draft")
        pilot.press(KeyPress(.left))
        let draft = pilot.app.composer.draft
        let keys: [KeyPress] = [.ctrl("u"), KeyPress(.delete), KeyPress(.left), KeyPress(.right), KeyPress(.up),
                                KeyPress(.down), .ctrl("d"), .ctrl("w"), .ctrl("k")]
        for key in keys {
            pilot.app.reactionPicker = ReactionPicker(commentID: "c1", recent: [])
            pilot.press(key)
            XCTAssertEqual(pilot.app.composer.draft, draft, "\(key) edited the hidden draft")
            XCTAssertEqual(pilot.app.composer.draft.cursorOffset, draft.cursorOffset, "\(key) moved the hidden caret")
            XCTAssertNil(pilot.app.reactionPicker, "\(key) closes the picker")
        }
        pilot.app.reactionPicker = ReactionPicker(commentID: "c1", recent: [])
        pilot.feed("\u{1B}[200~:tada:\u{1B}[201~")
        XCTAssertEqual(pilot.app.composer.draft, draft, "a paste into the picker")
        XCTAssertEqual(pilot.app.reactionPicker?.query, ":tada:", "the picker's query takes it")
        pilot.press(KeyPress(.enter))
        XCTAssertEqual(pilot.app.composer.draft, draft)
    }

    /// A key longer than a room keeps (a few characters, each piled with combining marks) is
    /// refused before it is sent, never sent to be dropped.
    func testAKeyLongerThanARoomKeepsIsRefused() {
        var picker = ReactionPicker(commentID: "c1", recent: [])
        let piled = Character("x" + String(repeating: "\u{301}", count: 60))
        for _ in 0..<5 { _ = picker.type(piled) }
        XCTAssertGreaterThan(picker.query.utf8.count, MatrixReactions.longestKey)
        XCTAssertEqual(picker.chosen, .failure(ReactionPicker.PickerRefusal("a reaction is one emoji or a short word")))
        XCTAssertEqual(ReactionPicker.longestKeyBytes, MatrixReactions.longestKey)
    }

    /// A thread in memory (the demo) takes no reactions: Alt-K says so (thread files and rooms do).
    func testAltKSaysAThreadInMemoryTakesNoReactions() {
        let pilot = ThreadFixture.numbered(3).pilot(columns: 60, rows: 12)
        pilot.feed("\u{1B}k")
        XCTAssertNil(pilot.app.reactionPicker)
        XCTAssertTrue(pilot.lines.last?.contains("this thread takes no reactions") == true, "\(pilot.lines)")
    }
}
