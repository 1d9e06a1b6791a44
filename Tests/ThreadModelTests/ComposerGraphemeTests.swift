import Foundation
import XCTest
@testable import ThreadModel

/// Edits that change where Characters begin and end: a typed base letter that a combining mark
/// after it joins, Hangul jamo composing, a deleted line break that lets a mark join the letter
/// before it, mentions a mark attaches to, and drafts saved in such states (issue 22, item 1).
final class ComposerGraphemeTests: XCTestCase {
    typealias Mention = CommentAttributes.MentionAttribute

    func check(_ doc: ComposerDocument, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNoThrow(try doc._checkInvariants(), file: file, line: line)
    }

    func mentions(_ s: AttributedString) -> [String] {
        s.runs[Mention.self].compactMap { value, range in value.map { "\(String(s[range].characters))=\($0)" } }
    }

    /// The crash of the issue: paste "\u{301}abc", Ctrl-A, type "x" (then anything).
    func testTypingInFrontOfALeadingCombiningMarkPutsTheCaretAfterTheJoinedCharacter() {
        var doc = ComposerDocument()
        doc.insert("\u{301}abc")
        doc.moveToStart()
        doc.insert("x"); check(doc)
        XCTAssertEqual(doc.string, "x\u{301}abc")
        XCTAssertEqual(doc.cursorOffset, 1, "after x́, the Character the typed x became part of")
        XCTAssertEqual(doc.currentTypingFormats, [])
        doc.insert("y"); check(doc)
        XCTAssertEqual(doc.string, "x\u{301}yabc")
        doc.deleteBackward(); doc.deleteBackward(); check(doc)
        XCTAssertEqual(doc.string, "abc")
    }

    func testTypingABoldLetterInFrontOfAMarkKeepsTheFormats() {
        var doc = ComposerDocument(text: "\u{301}abc")
        doc.moveToStart()
        doc.toggle(.bold)
        doc.insert("x"); check(doc)
        XCTAssertEqual(doc.cursorOffset, 1)
        XCTAssertTrue(doc.currentTypingFormats.contains(.bold))
        doc.insert("y"); check(doc)
        XCTAssertEqual(doc.string, "x\u{301}yabc")
    }

    /// Decomposed kana (か + U+3099, as pasted from some file names and PDFs): the mark joins
    /// the kana before it, whether it is typed, pasted, stepped over or half formatted.
    func testACombiningVoicedSoundMarkJoinsTheKanaBeforeIt() {
        var doc = ComposerDocument(text: "か\u{3099}き")
        doc.moveToStart()
        doc.move(by: 1); check(doc)
        XCTAssertEqual(doc.cursorOffset, 1, "over が as one Character")
        doc.insert("\u{309A}"); check(doc)
        doc.moveToStart()
        doc.insert("は"); check(doc)
        doc.insert("\u{3099}"); check(doc)
        XCTAssertEqual(doc.string, "は\u{3099}か\u{3099}\u{309A}き")
        doc.moveToStart()
        doc.move(by: 1, extending: true)
        doc.toggle(.bold); check(doc)
        doc.moveToEnd()
        doc.deleteBackward(); doc.deleteBackward(); check(doc)
        XCTAssertEqual(doc.string, "は\u{3099}")
    }

    /// A Hangul syllable typed before a vowel jamo composes with it (LV + V is one Character).
    func testTypingASyllableInFrontOfAVowelJamo() {
        var doc = ComposerDocument(text: "\u{1161}bc")
        doc.moveToStart()
        doc.insert("가"); check(doc)
        XCTAssertEqual(doc.cursorOffset, 1)
        doc.insert("x"); check(doc)
        XCTAssertEqual(doc.string, "가\u{1161}xbc")
        // A leading consonant before a vowel composes too.
        var jamo = ComposerDocument(text: "\u{1161}\u{11A8}z")
        jamo.moveToStart()
        jamo.insert("\u{1100}"); check(jamo)
        XCTAssertEqual(jamo.cursorOffset, 1)
        jamo.move(by: 1); check(jamo)
        XCTAssertEqual(jamo.cursorOffset, 2)
    }

    /// Deleting the line break between a letter and a mark joins them.
    func testDeletingWhatSeparatedALetterFromAMark() {
        var doc = ComposerDocument(text: "a\n\u{301}bc")
        doc.select(2..<2)
        doc.deleteBackward(); check(doc)
        XCTAssertEqual(doc.string, "a\u{301}bc")
        doc.insert("x"); check(doc)
        var forward = ComposerDocument(text: "a\n\u{301}bc")
        forward.select(1..<1)
        forward.deleteForward(); check(forward)
        forward.insert("x"); check(forward)
        // A flag's half typed before a flag re-pairs the regional indicators after it.
        var flags = ComposerDocument(text: "🇺🇸🇫🇷")
        flags.moveToStart()
        flags.insert("🇦"); check(flags)
        flags.insert("x"); check(flags)
    }

    /// A mark typed right after a mention changes its last letter: it is plain text from then on.
    func testAMarkJoiningAMentionMakesItPlainText() {
        var doc = ComposerDocument(text: "hi ")
        doc.insertMention(handle: "ann", userID: "u1")
        doc.move(by: -1)
        doc.insert("\u{301}"); check(doc)
        XCTAssertEqual(doc.string, "hi @ann\u{301} ")
        XCTAssertEqual(mentions(doc.text), [])
        doc.select(0..<5); check(doc)
        doc.select(4..<7); check(doc)
    }

    /// A saved draft whose runs split Characters restores to a document that edits safely.
    func testADraftSplittingCharactersRestoresSafely() throws {
        let json = #"{"version":1,"runs":[{"text":"x","formats":["bold"]},{"text":"\u0301a"},{"text":"@bo","mention":"u2"},{"text":"\u0308 ok"}],"selection":[0,0]}"#
        var doc = try ComposerDocument(decoding: Data(json.utf8)); check(doc)
        XCTAssertEqual(doc.string, "x\u{301}a@bo\u{308} ok")
        XCTAssertEqual(mentions(doc.text), [], "the mark changed the mention's text")
        for offset in 0...doc.string.count {
            doc.select(offset..<offset); check(doc)
            _ = doc.currentTypingFormats
            doc.insert("\u{1161}"); check(doc)
            doc.undo(); check(doc)
        }
        // The issue's draft: "\u{301}abc" with the caret at the start; the first key is safe.
        let saved = #"{"version":1,"runs":[{"text":"\u0301abc"}],"selection":[0,0]}"#
        var reopened = try ComposerDocument(decoding: Data(saved.utf8)); check(reopened)
        reopened.insert("x"); check(reopened)
        reopened.insert("y"); check(reopened)
        XCTAssertEqual(reopened.string, "x\u{301}yabc")
    }
}
