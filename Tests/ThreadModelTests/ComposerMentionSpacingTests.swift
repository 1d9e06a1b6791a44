import Foundation
import XCTest
@testable import ThreadModel

/// The space between a mention token and text typed against it is in the draft, put there as
/// the text is typed: what the composer shows, what undo takes back and what is sent agree.
final class ComposerMentionSpacingTests: XCTestCase {
    private static let handles = ["mateo": "u14", "marco": "u2", "kofi": "u12"]

    /// A draft holding only the token `@handle` (without the space `insertMention` adds), caret after it.
    private func token(_ handle: String) -> ComposerDocument {
        var doc = ComposerDocument(text: "")
        doc.insertMention(handle: handle, userID: Self.handles[handle]!)
        doc.deleteBackward()
        return doc
    }

    private func mentionIDs(_ s: AttributedString) -> [String] {
        s.runs[CommentAttributes.MentionAttribute.self].compactMap { value, _ in value }
    }

    func testTextTypedAfterATokenGetsItsSpaceAsItIsTyped() {
        var doc = token("mateo")
        XCTAssertEqual(doc.string, "@mateo")
        doc.insert("o")
        XCTAssertEqual(doc.string, "@mateo o", "the space shows as soon as the text is typed")
        XCTAssertEqual(doc.cursorOffset, 8)
        doc.insert("k")
        XCTAssertEqual(doc.string, "@mateo ok")
        XCTAssertEqual(doc.markdown, "@mateo ok", "what is sent is what is shown")
        XCTAssertEqual(mentionIDs(doc.text), ["u14"])
        // The typed word and its space are one undo step.
        doc.undo()
        XCTAssertEqual(doc.string, "@mateo")
        doc.redo()
        XCTAssertEqual(doc.string, "@mateo ok")
    }

    func testTextTypedRightBeforeATokenGetsASpace() {
        var doc = token("marco")
        doc.select(0..<0)
        doc.insert("Z")
        XCTAssertEqual(doc.string, "Z @marco")
        XCTAssertEqual(doc.cursorOffset, 1, "the caret stays after what was typed")
        doc.insert("Y")
        XCTAssertEqual(doc.string, "ZY @marco")
        XCTAssertEqual(doc.markdown, "ZY @marco")
        // Punctuation the parser reads a mention after needs none.
        var quoted = token("marco")
        quoted.select(0..<0)
        quoted.insert("(")
        XCTAssertEqual(quoted.string, "(@marco")
    }

    func testAMentionInsertedRightAfterAWordGetsASpaceBefore() {
        var doc = ComposerDocument(text: "Z")
        doc.insertMention(handle: "marco", userID: "u2")
        XCTAssertEqual(doc.string, "Z @marco ")
        XCTAssertEqual(doc.markdown, "Z @marco ")
        XCTAssertEqual(mentionIDs(CommentMarkup.parse(doc.markdown) { Self.handles[$0] }), ["u2"])
        // Two tokens typed one after the other stay two.
        var two = token("kofi")
        two.insertMention(handle: "kofi", userID: "u12")
        XCTAssertEqual(two.string, "@kofi @kofi ")
        XCTAssertEqual(mentionIDs(two.text), ["u12", "u12"])
    }

    func testADotThenALetterAfterATokenSeparateTheToken() {
        var doc = token("kofi")
        doc.insert(".")
        XCTAssertEqual(doc.string, "@kofi.", "a sentence's dot is no part of the handle")
        doc.insert("x")
        XCTAssertEqual(doc.string, "@kofi .x", "`@kofi.x` would read as the handle kofi.x")
        XCTAssertEqual(doc.cursorOffset, 8)
        XCTAssertEqual(doc.markdown, "@kofi .x")
    }

    func testBackspaceAndDeleteStepOverTheSpaceThatKeepsATokenApart() {
        var doc = token("kofi")
        doc.insert("x")
        XCTAssertEqual(doc.string, "@kofi x")
        doc.select(6..<6)
        doc.deleteBackward()
        XCTAssertEqual(doc.string, "@kofi x", "deleting the space would join the token and the word")
        XCTAssertEqual(doc.cursorOffset, 5)
        doc.deleteForward()
        XCTAssertEqual(doc.string, "@kofi x")
        XCTAssertEqual(doc.cursorOffset, 6, "Delete steps over it too, so the next one deletes the word")
        doc.deleteForward()
        XCTAssertEqual(doc.string, "@kofi ")
        // Before a token as well.
        var before = ComposerDocument(text: "Z")
        before.insertMention(handle: "marco", userID: "u2")
        before.select(2..<2)
        before.deleteBackward()
        XCTAssertEqual(before.string, "Z @marco ")
        XCTAssertEqual(before.cursorOffset, 1)
    }

    func testDeletingWhatStoodBetweenATokenAndAWordLeavesASpace() {
        var doc = token("kofi")
        doc.insert(" and x")
        XCTAssertEqual(doc.string, "@kofi and x")
        doc.select(5..<10)
        doc.deleteBackward()
        XCTAssertEqual(doc.string, "@kofi x")
        XCTAssertEqual(doc.markdown, "@kofi x")
        XCTAssertEqual(mentionIDs(doc.text), ["u12"])
    }

    func testAPasteAndAYankAgainstATokenGetTheirSpace() {
        var doc = token("kofi")
        doc.insert("thanks all")
        XCTAssertEqual(doc.string, "@kofi thanks all")
        // Ctrl-U kills the line into the kill buffer; Ctrl-Y after a word puts the token back apart.
        var killed = ComposerDocument(text: "")
        killed.insertMention(handle: "kofi", userID: "u12")
        killed.killToLineStart()
        killed.insert("hi")
        killed.yank()
        XCTAssertEqual(killed.string, "hi @kofi ")
        XCTAssertEqual(mentionIDs(killed.text), ["u12"])
    }

    /// A draft saved by an older client (the token against a word) is given its space on restore.
    func testARestoredDraftWithATokenAgainstAWordIsGivenItsSpace() throws {
        var saved = AttributedString("@kofi")
        saved[saved.startIndex..<saved.endIndex][CommentAttributes.MentionAttribute.self] = "u12"
        saved.append(AttributedString("x"))
        var before = AttributedString("Z")
        before.append(saved)
        let doc = ComposerDocument(before)
        XCTAssertEqual(doc.string, "Z @kofi x")
        XCTAssertEqual(doc.markdown, "Z @kofi x")
        XCTAssertEqual(mentionIDs(doc.text), ["u12"])
    }
}
