import Foundation
import XCTest
@testable import ThreadModel

/// Editing the composer's rich draft: atomic mentions, selection, formatting, kill ring, paste,
/// the mention picker's query and persistence. Markdown and undo are in the `+Markdown` file.
final class ComposerDocumentTests: XCTestCase {
    typealias Mention = CommentAttributes.MentionAttribute

    /// Asserts the document's invariants; call after every step.
    func check(_ doc: ComposerDocument, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNoThrow(try doc._checkInvariants(), file: file, line: line)
    }

    /// "text=userID" for every mention run.
    func mentions(_ s: AttributedString) -> [String] {
        s.runs[Mention.self].compactMap { value, range in value.map { "\(String(s[range].characters))=\($0)" } }
    }

    /// The texts of the runs that have `format`.
    func runs(_ doc: ComposerDocument, _ format: ComposerFormat) -> [String] {
        var out: [String] = []
        var current = ""
        for run in doc.text.runs {
            if ComposerFormatting.formats(in: run.attributes).contains(format) {
                current += String(doc.text[run.range].characters)
            } else if !current.isEmpty {
                out.append(current); current = ""
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// "hi @tatiana x" with the caret at the end.
    func documentWithMention() -> ComposerDocument {
        var doc = ComposerDocument()
        doc.insert("hi ")
        doc.insertMention(handle: "tatiana", userID: "u1")
        doc.insert("x")
        return doc
    }

    func testTypingMirrorsTheDraftEditor() {
        var doc = ComposerDocument()
        doc.insert("hello"); check(doc)
        XCTAssertEqual(doc.cursorOffset, 5)
        doc.move(by: -2); check(doc)
        doc.insert("X"); check(doc)
        XCTAssertEqual(doc.string, "helXlo")
        XCTAssertEqual(doc.cursorOffset, 4)
        doc.moveToStart(); doc.insert("é"); check(doc)
        XCTAssertEqual(doc.string, "éhelXlo")
        doc.moveToEnd(); doc.deleteBackward(); check(doc)
        XCTAssertEqual(doc.string, "éhelXl")
        doc.clear(); check(doc)
        XCTAssertTrue(doc.isEmpty)
        XCTAssertEqual(doc.cursorOffset, 0)
    }

    func testInsertMentionAddsTheAttributeAndAPlainSpace() {
        let doc = documentWithMention(); check(doc)
        XCTAssertEqual(doc.string, "hi @tatiana x")
        XCTAssertEqual(mentions(doc.text), ["@tatiana=u1"])
        XCTAssertEqual(doc.cursorOffset, 13)
    }

    func testCaretMotionTreatsAMentionAsOneUnit() {
        var doc = documentWithMention()
        doc.move(by: -2); check(doc)
        XCTAssertEqual(doc.cursorOffset, 11)
        doc.move(by: -1); check(doc)
        XCTAssertEqual(doc.cursorOffset, 3, "one step crosses the whole mention")
        doc.move(by: 1); check(doc)
        XCTAssertEqual(doc.cursorOffset, 11)
        doc.move(by: -1, extending: true); check(doc)
        XCTAssertEqual(doc.selectedOffsets, 3..<11)
        XCTAssertEqual(doc.cursorOffset, 3)
        // Offsets inside a mention are snapped out of it.
        doc.select(5..<6); check(doc)
        XCTAssertEqual(doc.selectedOffsets, 3..<11)
        doc.select(5..<5); check(doc)
        XCTAssertEqual(doc.selectedOffsets, 3..<3)
    }

    func testWordMotionTreatsAMentionAsOneWord() {
        var doc = documentWithMention()
        doc.moveWord(forward: false); check(doc)
        XCTAssertEqual(doc.cursorOffset, 12)
        doc.moveWord(forward: false); check(doc)
        XCTAssertEqual(doc.cursorOffset, 3)
        doc.moveWord(forward: false); check(doc)
        XCTAssertEqual(doc.cursorOffset, 0)
        doc.moveWord(forward: true); check(doc)
        XCTAssertEqual(doc.cursorOffset, 2)
        doc.moveWord(forward: true); check(doc)
        XCTAssertEqual(doc.cursorOffset, 11)
        doc.moveWord(forward: false, extending: true); check(doc)
        XCTAssertEqual(doc.selectedOffsets, 3..<11)
    }

    func testBackspaceAndDeleteRemoveAWholeMention() {
        var doc = documentWithMention()
        doc.select(11..<11)
        doc.deleteBackward(); check(doc)
        XCTAssertEqual(doc.string, "hi  x")
        XCTAssertEqual(doc.cursorOffset, 3)
        XCTAssertEqual(mentions(doc.text), [])
        doc.undo(); check(doc)
        XCTAssertEqual(mentions(doc.text), ["@tatiana=u1"])
        doc.select(3..<3)
        doc.deleteForward(); check(doc)
        XCTAssertEqual(doc.string, "hi  x")
        XCTAssertEqual(doc.cursorOffset, 3)
    }

    func testTypingRightAfterAMentionDoesNotExtendIt() {
        var doc = documentWithMention()
        doc.select(11..<11)
        doc.insert("s"); check(doc)
        // It goes after a space, which the draft shows and the comment sends.
        XCTAssertEqual(doc.string, "hi @tatiana s x")
        XCTAssertEqual(mentions(doc.text), ["@tatiana=u1"])
        // Typing right before it does not join it either.
        doc.select(3..<3)
        doc.insert("("); check(doc)
        XCTAssertEqual(mentions(doc.text), ["@tatiana=u1"])
    }

    func testEditingInsideAMentionTurnsItIntoPlainText() {
        // The API never puts the caret inside a mention; the primitive edit shows what Foundation's
        // invalidation does if text inside one changes anyway: the whole run loses the attribute.
        var doc = documentWithMention()
        let inside = doc.index(atOffset: 6)
        doc.replace(inside..<inside, with: AttributedString("Z"), kind: .other); check(doc)
        XCTAssertEqual(doc.string, "hi @taZtiana x")
        XCTAssertEqual(mentions(doc.text), [])
        var other = documentWithMention()
        let a = other.index(atOffset: 9), b = other.index(atOffset: 11)
        other.replace(a..<b, with: AttributedString(), kind: .other); check(other)
        XCTAssertEqual(other.string, "hi @tatia x")
        XCTAssertEqual(mentions(other.text), [])
    }

    func testFormattingTogglesOnTheSelection() {
        var doc = ComposerDocument(text: "hello world")
        doc.select(0..<5)
        doc.toggle(.bold); check(doc)
        XCTAssertEqual(runs(doc, .bold), ["hello"])
        XCTAssertTrue(doc.isActive(.bold))
        XCTAssertEqual(doc.selectedOffsets, 0..<5, "formatting keeps the selection")
        doc.selectAll()
        XCTAssertFalse(doc.isActive(.bold))
        doc.toggle(.bold); check(doc)
        XCTAssertEqual(runs(doc, .bold), ["hello world"], "partly bold becomes all bold")
        doc.toggle(.bold); check(doc)
        XCTAssertEqual(runs(doc, .bold), [], "all bold becomes plain")
        doc.select(6..<11)
        doc.toggle(.spoiler); doc.toggle(.italic); check(doc)
        XCTAssertEqual(runs(doc, .spoiler), ["world"])
        XCTAssertEqual(runs(doc, .italic), ["world"])
        doc.undo(); check(doc)
        XCTAssertEqual(runs(doc, .italic), [])
    }

    func testCodeNeverCoversAMention() {
        var doc = documentWithMention()
        doc.selectAll()
        doc.toggle(.code); check(doc)
        XCTAssertEqual(runs(doc, .code), ["hi ", " x"])
        XCTAssertEqual(mentions(doc.text), ["@tatiana=u1"])
        XCTAssertTrue(doc.isActive(.code), "the mention does not count against the toggle")
    }

    func testTypingAttributesApplyToTheNextTypedText() {
        var doc = ComposerDocument(text: "a ")
        doc.toggle(.italic)
        XCTAssertTrue(doc.isActive(.italic))
        doc.insert("b"); doc.insert("c"); check(doc)
        XCTAssertEqual(runs(doc, .italic), ["bc"])
        // Typing continues the formatting of the text before the caret.
        doc.insert("d"); check(doc)
        XCTAssertEqual(runs(doc, .italic), ["bcd"])
        doc.toggle(.italic); doc.insert(" e"); check(doc)
        XCTAssertEqual(runs(doc, .italic), ["bcd"])
        // Moving the caret drops a pending toggle.
        doc.toggle(.bold)
        doc.move(by: -1); doc.move(by: 1)
        XCTAssertFalse(doc.isActive(.bold))
        doc.insert("f"); check(doc)
        XCTAssertEqual(runs(doc, .bold), [])
        XCTAssertEqual(doc.string, "a bcd ef")
    }

    func testTheAllowListStripsEverythingElse() {
        let users = [User(id: "u1", handle: "tatiana", name: "T")]
        let parsed = CommentMarkup.parse("**b** *i* [l](http://x) @tatiana `c`", users: users)
        var rich = ComposerDocument()
        rich.insert(parsed); check(rich)
        XCTAssertEqual(rich.string, "b i l @tatiana c")
        XCTAssertTrue(rich.text.runs.allSatisfy { $0[CommentAttributes.LinkAttribute.self] == nil && $0[CommentAttributes.BlockAttribute.self] == nil })
        XCTAssertEqual(runs(rich, .bold), ["b"])
        XCTAssertEqual(mentions(rich.text), ["@tatiana=u1"])

        let boldOnly = ComposerFormatting(allowed: [.bold], allowsMentions: false)
        var plain = ComposerDocument(formatting: boldOnly)
        plain.insert(parsed); check(plain)
        XCTAssertEqual(runs(plain, .bold), ["b"])
        XCTAssertEqual(runs(plain, .italic), [])
        XCTAssertEqual(runs(plain, .code), [])
        XCTAssertEqual(mentions(plain.text), [])
        plain.selectAll(); plain.toggle(.italic); check(plain)
        XCTAssertEqual(runs(plain, .italic), [], "a format outside the list cannot be toggled on")
        let restored = ComposerDocument(parsed, formatting: boldOnly); check(restored)
        XCTAssertEqual(restored.text, plain.text)
    }

    func testSelectionFollowsEditsAndExtendsFromTheAnchor() {
        var doc = ComposerDocument(text: "abcdef")
        doc.select(2..<5)
        doc.insert("XY"); check(doc)
        XCTAssertEqual(doc.string, "abXYf")
        XCTAssertEqual(doc.selectedOffsets, 4..<4)
        doc.select(2..<2)
        doc.move(by: 2, extending: true); check(doc)
        XCTAssertEqual(doc.selectedOffsets, 2..<4)
        doc.move(by: -3, extending: true); check(doc)
        XCTAssertEqual(doc.selectedOffsets, 1..<2, "the anchor stays at 2")
        XCTAssertEqual(doc.cursorOffset, 1)
        doc.moveToLineEnd(extending: true); check(doc)
        XCTAssertEqual(doc.selectedOffsets, 2..<5)
        doc.move(by: -1); check(doc)
        XCTAssertEqual(doc.selectedOffsets, 2..<2, "Left collapses to the selection's start")
        doc.select(1..<3)
        doc.deleteForward(); check(doc)
        XCTAssertEqual(doc.string, "aYf")
        XCTAssertEqual(doc.cursorOffset, 1)
    }

    func testLineMotion() {
        var doc = ComposerDocument(text: "one\ntwo three\nfour")
        doc.select(8..<8)
        doc.moveToLineStart(); check(doc)
        XCTAssertEqual(doc.cursorOffset, 4)
        doc.moveToLineEnd(); check(doc)
        XCTAssertEqual(doc.cursorOffset, 13)
    }

    func testKillAndYankKeepFormattingAndMentions() {
        var doc = documentWithMention()
        doc.insert(" world"); check(doc)
        doc.killWordBackward(); check(doc)
        XCTAssertEqual(doc.string, "hi @tatiana x ")
        XCTAssertEqual(String(doc.killBuffer.characters), "world")
        doc.select(11..<11)
        doc.killWordBackward(); check(doc)
        XCTAssertEqual(doc.string, "hi  x ")
        XCTAssertEqual(mentions(doc.killBuffer), ["@tatiana=u1"])
        doc.moveToEnd()
        doc.yank(); check(doc)
        XCTAssertEqual(doc.string, "hi  x @tatiana")
        XCTAssertEqual(mentions(doc.text), ["@tatiana=u1"])
        doc.moveToStart()
        doc.killWordForward(); check(doc)
        XCTAssertEqual(doc.string, "  x @tatiana")
        var lines = ComposerDocument(text: "ab\ncd")
        lines.select(1..<1)
        lines.killToLineEnd(); check(lines)
        XCTAssertEqual(lines.string, "a\ncd")
        lines.killToLineEnd(); check(lines)
        XCTAssertEqual(lines.string, "acd", "at a line's end Ctrl-K takes the newline")
        lines.moveToEnd()
        lines.killToLineStart(); check(lines)
        XCTAssertEqual(lines.string, "")
        XCTAssertEqual(String(lines.killBuffer.characters), "acd")
    }

    func testPlainPasteIsSanitized() {
        var doc = ComposerDocument()
        doc.insert("a\r\nb\rc\u{202E}d\u{0007}e\u{7F}\u{85}f\tg\u{2066}h\u{1B}[31mi"); check(doc)
        XCTAssertEqual(doc.string, "a\nb\ncdef\tgh[31mi")
        // Emoji built with a joiner survive.
        doc.clear(); doc.insert("👩\u{200D}💻"); check(doc)
        XCTAssertEqual(doc.string, "👩\u{200D}💻")
    }

    func testALargePasteIsOneInsertion() {
        var doc = ComposerDocument(text: "start end")
        doc.select(6..<6)
        let line = "some pasted text, with\r\nwindows line ends\u{202E} and controls\u{0001}.\n"
        let paste = String(repeating: line, count: 200_000 / line.count + 1)
        doc.insert(paste); check(doc)
        let expected = ComposerFormatting.sanitizePlainText(paste)
        XCTAssertGreaterThan(expected.count, 190_000)
        XCTAssertFalse(expected.contains("\r"))
        XCTAssertEqual(doc.string, "start " + expected + "end")
        XCTAssertEqual(doc.cursorOffset, 6 + expected.count)
        doc.undo()
        XCTAssertEqual(doc.string, "start end")
    }

    func testMentionQuery() {
        func query(_ text: String) -> String? {
            let doc = ComposerDocument(text: text)
            return doc.mentionQuery.map { "\($0.range.lowerBound)..<\($0.range.upperBound) \($0.query)" }
        }
        XCTAssertEqual(query("hi @ta"), "3..<6 ta")
        XCTAssertEqual(query("@"), "0..<1 ")
        XCTAssertEqual(query("x\n@a.b-c_d"), "2..<10 a.b-c_d")
        XCTAssertNil(query("mail@ta"), "not after a word character")
        XCTAssertNil(query("@ta b"), "a space ends the token")
        XCTAssertNil(query("@ta!"))
        XCTAssertNil(query("hello"))
        let done = documentWithMention()
        var afterMention = done
        afterMention.select(11..<11)
        XCTAssertNil(afterMention.mentionQuery, "a finished mention is not a query")
        var selecting = ComposerDocument(text: "@ta")
        selecting.selectAll()
        XCTAssertNil(selecting.mentionQuery)

        var doc = ComposerDocument(text: "hi @ta")
        let token = doc.mentionQuery!
        doc.insertMention(handle: "tatiana", userID: "u1", replacing: token.range); check(doc)
        XCTAssertEqual(doc.string, "hi @tatiana ")
        XCTAssertEqual(mentions(doc.text), ["@tatiana=u1"])
        XCTAssertEqual(doc.cursorOffset, 12)
    }

    func testDraftsSurviveEncodingAndDecoding() throws {
        var doc = documentWithMention()
        doc.select(0..<2); doc.toggle(.bold)
        doc.select(12..<13); doc.toggle(.spoiler)
        doc.select(1..<11)
        let restored = try ComposerDocument(decoding: doc.encoded()); check(restored)
        XCTAssertEqual(restored.text, doc.text)
        XCTAssertEqual(restored.selectedOffsets, 1..<11)
        XCTAssertEqual(mentions(restored.text), ["@tatiana=u1"])

        let strict = try ComposerDocument(decoding: doc.encoded(), formatting: ComposerFormatting(allowed: [.spoiler], allowsMentions: false))
        check(strict)
        XCTAssertEqual(strict.string, doc.string)
        XCTAssertEqual(runs(strict, .bold), [])
        XCTAssertEqual(runs(strict, .spoiler), ["x"])
        XCTAssertEqual(mentions(strict.text), [])
    }

    func testRestoringClampsTheSelectionAndDropsUnknownFormats() throws {
        let json = #"{"version":1,"runs":[{"text":"ab","formats":["bold","blink"]},{"text":"@bo","mention":"u2"},{"text":"\u202Ec"}],"selection":[-4,999]}"#
        let doc = try ComposerDocument(decoding: Data(json.utf8)); check(doc)
        // The token against letters on both sides gets the spaces that keep it a mention.
        XCTAssertEqual(doc.string, "ab @bo c")
        XCTAssertEqual(doc.selectedOffsets, 0..<8)
        XCTAssertEqual(runs(doc, .bold), ["ab"])
        XCTAssertEqual(mentions(doc.text), ["@bo=u2"])
        let inside = #"{"version":1,"runs":[{"text":"@bo","mention":"u2"}],"selection":[1,2]}"#
        let snapped = try ComposerDocument(decoding: Data(inside.utf8)); check(snapped)
        XCTAssertEqual(snapped.selectedOffsets, 0..<3)
    }

    func testMalformedDraftsThrowAClearError() {
        let cases: [(String, String)] = [
            ("not json", "not valid JSON"),
            (#"{"version":1,"selection":[0,0]}"#, "missing \"runs\""),
            (#"{"version":1,"runs":[{"text":5}],"selection":[0,0]}"#, "runs.0.text"),
            (#"{"version":2,"runs":[],"selection":[0,0]}"#, "unknown draft version 2"),
            (#"{"version":1,"runs":[],"selection":[0]}"#, "2 offsets"),
        ]
        for (json, expected) in cases {
            XCTAssertThrowsError(try ComposerDocument(decoding: Data(json.utf8)), json) { error in
                guard let error = error as? ComposerDocumentDecodingError else { return XCTFail("\(error)") }
                XCTAssertTrue(error.message.contains(expected), "\(error.message) for \(json)")
            }
        }
    }
}
