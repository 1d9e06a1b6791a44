import XCTest
@testable import CommentTUI

final class ComposerDraftTests: XCTestCase {
    func testInsertAndDeleteAroundTheCursor() {
        var draft = ComposerDraft()
        draft.insert("héllo")
        draft.move(by: -2)
        draft.insert("X")
        XCTAssertEqual(draft.text, "hélXlo")
        draft.deleteBackward()
        draft.deleteForward()
        XCTAssertEqual(draft.text, "hélo")
        XCTAssertEqual(draft.cursor, 3)
    }

    func testReadlineKillsAndYank() {
        var draft = ComposerDraft(text: "one two three")
        draft.killWordBackward()
        XCTAssertEqual(draft.text, "one two ")
        draft.moveToLineStart()
        draft.killWordForward()
        XCTAssertEqual(draft.text, " two ")
        draft.moveToLineEnd()
        draft.yank()
        XCTAssertEqual(draft.text, " two one")
        draft.moveToLineStart()
        draft.killToLineEnd()
        XCTAssertEqual(draft.text, "")
        XCTAssertEqual(draft.killBuffer, " two one")
    }

    func testLineMotionInMultiLineDrafts() {
        var draft = ComposerDraft(text: "ab\ncd")
        draft.moveToLineStart()
        XCTAssertEqual(draft.cursor, 3)
        draft.move(by: -1)
        draft.moveToLineStart()
        XCTAssertEqual(draft.cursor, 0)
        draft.moveToLineEnd()
        XCTAssertEqual(draft.cursor, 2)
        draft.killToLineEnd()   // at a line end, Ctrl-K joins the lines
        XCTAssertEqual(draft.text, "abcd")
    }

    func testWordMotion() {
        var draft = ComposerDraft(text: "hello, wide world")
        draft.moveWord(forward: false)
        XCTAssertEqual(draft.cursor, 12)
        draft.moveWord(forward: false)
        draft.moveWord(forward: false)
        XCTAssertEqual(draft.cursor, 0)
        draft.moveWord(forward: true)
        XCTAssertEqual(draft.cursor, 5)
    }
}
