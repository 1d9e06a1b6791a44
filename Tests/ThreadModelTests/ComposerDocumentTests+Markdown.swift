import Foundation
import XCTest
@testable import ThreadModel

/// The composer's markdown output, its round trip through `CommentMarkup.parse`, and undo.
extension ComposerDocumentTests {
    private static let handles = ["tatiana": "u1", "bo_r": "u2"]

    /// Builds a document from text and (offsets, format) toggles.
    private func document(_ text: String, _ formats: [(Range<Int>, ComposerFormat)] = [],
                          mentionAt offset: Int? = nil, handle: String = "tatiana") -> ComposerDocument {
        var doc = ComposerDocument(text: text)
        if let offset {
            doc.select(offset..<offset)
            doc.insertMention(handle: handle, userID: Self.handles[handle]!)
            doc.deleteBackward() // the space insertMention adds
        }
        for (range, format) in formats {
            doc.select(range)
            doc.toggle(format)
            check(doc)
        }
        return doc
    }

    /// Per character: the character, its formats and mention (blocks and spoiler numbers ignored;
    /// a newline's formats too, as the parser gives a line break none). `lenientWhitespace` also
    /// ignores the formats of whitespace: where spans cross, a span must be closed and reopened
    /// at a space, and CommonMark delimiters cannot sit against whitespace on their inner side.
    private func signature(_ s: AttributedString, lenientWhitespace: Bool = false) -> [String] {
        var out: [String] = []
        for run in s.runs {
            let formats = ComposerFormatting.formats(in: run.attributes).map(\.rawValue).sorted().joined(separator: "+")
            let mention = run[CommentAttributes.MentionAttribute.self] ?? ""
            for c in s[run.range].characters {
                let plainOnly = c == "\n" || (lenientWhitespace && c.isWhitespace)
                out.append(plainOnly ? "\(c)" : "\(c)|\(formats)|\(mention)")
            }
        }
        return out
    }

    private func assertRoundTrip(_ doc: ComposerDocument, lenientWhitespace: Bool = false,
                                 file: StaticString = #filePath, line: UInt = #line) {
        let parsed = CommentMarkup.parse(doc.markdown, handles: { Self.handles[$0] })
        XCTAssertEqual(signature(parsed, lenientWhitespace: lenientWhitespace), signature(doc.text, lenientWhitespace: lenientWhitespace),
                       "markdown: \(doc.markdown)", file: file, line: line)
    }

    func testMarkdownWritesMarkersAndKeepsTypedText() {
        XCTAssertEqual(document("typed **x** stays").markdown, "typed **x** stays")
        XCTAssertEqual(document("a b c", [(1..<4, .bold)]).markdown, "a **b** c", "edge spaces stay outside")
        XCTAssertEqual(document("one two", [(0..<7, .italic)]).markdown, "*one two*")
        XCTAssertEqual(document("gone", [(0..<4, .strikethrough)]).markdown, "~~gone~~")
        XCTAssertEqual(document("the end", [(4..<7, .spoiler)]).markdown, "the ||end||")
        XCTAssertEqual(document("a`b", [(0..<3, .code)]).markdown, "``a`b``")
        XCTAssertEqual(document("`x", [(0..<2, .code)]).markdown, "`` `x ``")
        XCTAssertEqual(document("x``", [(0..<3, .code)]).markdown, "``` x`` ```")
        XCTAssertEqual(document("hi  x", mentionAt: 3).markdown, "hi @tatiana x")
        XCTAssertEqual(document("ab\ncd", [(0..<5, .bold)]).markdown, "**ab**\n**cd**", "each line closes its spans")
        XCTAssertEqual(document("both", [(0..<4, .bold), (0..<4, .italic)]).markdown, "***both***")
    }

    func testMarkdownNestsOverlappingRuns() {
        let crossing = document("bold and italic", [(0..<8, .bold), (5..<15, .italic)])
        XCTAssertEqual(crossing.markdown, "**bold *and*** *italic*")
        // The space between "and" and "italic" comes back plain: italic must reopen after it.
        assertRoundTrip(crossing, lenientWhitespace: true)
    }

    func testMarkdownRoundTripsThroughTheParser() {
        let documents = [
            document("plain text only"),
            document("abc", [(0..<2, .bold), (1..<3, .italic)]),
            document("one two three", [(0..<13, .italic), (4..<7, .bold)]),
            document("run a`b now", [(4..<7, .code)]),
            document("x ``y` z", [(2..<6, .code), (0..<8, .bold)]),
            document("secret plot twist", [(7..<17, .spoiler), (12..<17, .strikethrough)]),
            document("see  now", [(0..<3, .bold), (5..<8, .italic)], mentionAt: 4),
            document("hey ", [(0..<3, .bold), (4..<12, .italic)], mentionAt: 4),
            document("x, !", [(0..<1, .strikethrough), (3..<4, .bold)], mentionAt: 3, handle: "bo_r"),
            document("line one\nline two", [(5..<13, .bold)]),
        ]
        for doc in documents {
            check(doc)
            assertRoundTrip(doc)
        }
        // A mention keeps its formatting through the round trip.
        XCTAssertEqual(documents[7].markdown, "**hey** *@tatiana*")
        // Crossing spans inside a word: the reopened emphasis uses `_` so `***` and `*` stay apart.
        XCTAssertEqual(documents[1].markdown, "**a*b***_c_")
    }

    func testRubyMarkupStaysWholeAndAnEscapedBraceStaysText() {
        // Typed ruby means it, as typed `**` does; a format over all of it goes around it.
        XCTAssertEqual(document("{漢字|かんじ}").markdown, "{漢字|かんじ}")
        XCTAssertEqual(document("{漢字|かんじ}", [(0..<8, .bold)]).markdown, "**{漢字|かんじ}**")
        // A format on part of it stays inside the base and never reaches the reading.
        XCTAssertEqual(document("{漢字|かんじ}", [(0..<2, .bold)]).markdown, "{**漢**字|かんじ}")
        XCTAssertEqual(document("{漢字|かんじ}", [(3..<8, .italic)]).markdown, "{漢字|かんじ}")
        let parsed = CommentMarkup.parse(document("x {漢字|かんじ}", [(0..<4, .bold)]).markdown, handles: { _ in nil })
        XCTAssertEqual(String(parsed.characters), "x 漢字")
        XCTAssertEqual(parsed.runs[CommentAttributes.RubyAttribute.self].compactMap { $0.0?.reading }, ["かんじ"])
        // A typed `\{` is a brace as text: a format on the backslash does not part the two.
        let escaped = document("\\{a|b}", [(0..<1, .bold)])
        XCTAssertEqual(escaped.markdown, "\\{a|b}")
        let literal = CommentMarkup.parse(escaped.markdown, handles: { _ in nil })
        XCTAssertEqual(String(literal.characters), "{a|b}")
        XCTAssertTrue(literal.runs[CommentAttributes.RubyAttribute.self].allSatisfy { $0.0 == nil })
        // Code is literal, braces included: it round-trips as text.
        let code = document("{a|b} x", [(0..<5, .code)])
        XCTAssertEqual(code.markdown, "`{a|b}` x")
        assertRoundTrip(code)
    }

    func testUndoCoalescesTypingIntoWords() {
        var doc = ComposerDocument()
        for c in "ab cd" { doc.insert(String(c)); check(doc) }
        doc.undo(); check(doc)
        XCTAssertEqual(doc.string, "ab ")
        XCTAssertEqual(doc.cursorOffset, 3)
        doc.undo(); check(doc)
        XCTAssertEqual(doc.string, "")
        XCTAssertFalse(doc.canUndo)
        doc.redo(); check(doc)
        XCTAssertEqual(doc.string, "ab ")
        doc.redo(); check(doc)
        XCTAssertEqual(doc.string, "ab cd")
        XCTAssertFalse(doc.canRedo)
        // Moving the caret ends the group; a new edit clears redo.
        doc.insert("e"); doc.move(by: -1); doc.insert("f"); doc.insert("g")
        XCTAssertEqual(doc.string, "ab cdfge")
        doc.undo(); check(doc)
        XCTAssertEqual(doc.string, "ab cde")
        XCTAssertEqual(doc.cursorOffset, 5)
        doc.insert("z")
        XCTAssertFalse(doc.canRedo)
        // A paste or a deletion is a step of its own.
        doc.insert("pasted"); doc.deleteBackward()
        doc.undo()
        XCTAssertEqual(doc.string, "ab cdzpastede")
        doc.undo()
        XCTAssertEqual(doc.string, "ab cdze")
    }

    func testUndoRestoresSelectionAndIsCapped() {
        var doc = ComposerDocument(text: "hello")
        doc.select(1..<4)
        doc.insert("X")
        doc.undo(); check(doc)
        XCTAssertEqual(doc.string, "hello")
        XCTAssertEqual(doc.selectedOffsets, 1..<4)
        var capped = ComposerDocument()
        for n in 0..<250 { capped.insert("w\(n) ") }
        var steps = 0
        while capped.canUndo { capped.undo(); steps += 1 }
        XCTAssertEqual(steps, 200)
        XCTAssertEqual(capped.string.hasPrefix("w0 "), true)
        XCTAssertEqual(capped.string.hasSuffix("w49 "), true)
    }
}
