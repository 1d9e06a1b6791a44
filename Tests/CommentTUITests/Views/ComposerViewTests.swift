import XCTest
import ThreadModel
import CommentTUITestSupport
@testable import CommentTUI

final class ComposerViewTests: XCTestCase {
    private let legend: [Character: CellStyle] = [
        "p": Theme.prompt, "d": Theme.dim, "b": CellStyle(.bold), "r": CellStyle(.reverse), "m": Theme.mention,
    ]

    /// The composer for `document` in a `columns`x`rows` rect; returns the buffer and the caret.
    private func draw(_ document: ComposerDocument, columns: Int = 16, rows: Int = 2) -> (CellBuffer, CursorPosition) {
        let window = ComposerWindow(document: document, width: columns - ComposerView.promptWidth, rows: rows,
                                    handles: { $0 == "bo" ? "u2" : nil })
        var buffer = CellBuffer(columns: columns, rows: rows)
        let caret = ComposerView(window: window).draw(into: &buffer, rect: CellRect(column: 0, row: 0, width: columns, height: rows))
        return (buffer, caret)
    }

    func testAnEmptyDraftIsThePromptWithTheCaretAfterIt() {
        let (buffer, caret) = draw(ComposerDocument())
        assertScreen(buffer, ["› ", "pp", "", ""], legend: legend)
        XCTAssertEqual(caret, CursorPosition(column: 2, row: 0))
    }

    func testTypedMarkdownIsStyledWithItsMarkersDimmed() {
        let (buffer, caret) = draw(ComposerDocument(text: "hi **you**"))
        assertScreen(buffer, [
            "› hi **you**", "pp   ddbbbdd",
            "", "",
        ], legend: legend)
        XCTAssertEqual(caret, CursorPosition(column: 12, row: 0))
    }

    func testASelectionIsReversed() {
        var document = ComposerDocument(text: "one two")
        document.select(4..<7)
        assertScreen(draw(document).0, ["› one two", "pp    rrr", "", ""], legend: legend)
    }

    /// Ruby shows as typed: the base as text, the braces, bar and reading dimmed as markup.
    func testTypedRubyShowsItsMarkupDimmed() {
        assertScreen(draw(ComposerDocument(text: "{字|じ} a"), columns: 16).0, [
            "› {字|じ} a", "ppd  dddd",
            "", "",
        ], legend: legend)
        // An escaped brace is text: only the backslash is a marker.
        assertScreen(draw(ComposerDocument(text: "\\{a|b}"), columns: 16).0, ["› \\{a|b}", "ppd", "", ""], legend: legend)
    }

    func testAMentionIsStyledAsOne() {
        var document = ComposerDocument(text: "hi ")
        document.insertMention(handle: "bo", userID: "u2")
        // The space the insertion adds after the mention is dimmed like a marker.
        assertScreen(draw(document).0, ["› hi @bo ", "pp   mmmd", "", ""], legend: legend)
    }

    /// Four lines in two rows: the caret's rows show, and `↑` takes the prompt's place.
    func testALongDraftScrollsToTheCaretAndSaysMoreIsAbove() {
        let (buffer, caret) = draw(ComposerDocument(text: "one\ntwo\nthree\nfour"))
        assertScreen(buffer, [
            "↑ three", "d",
            "  four", "",
        ], legend: legend)
        XCTAssertEqual(caret, CursorPosition(column: 6, row: 1))
    }

    /// Two full rows: the caret after them starts a third, as a terminal would put it.
    func testACaretAfterAFullRowStartsTheNextRow() {
        let (buffer, caret) = draw(ComposerDocument(text: String(repeating: "a", count: 28)))
        assertScreen(buffer, [
            "↑ aaaaaaaaaaaaaa", "d",
            "", "",
        ], legend: legend)
        XCTAssertEqual(caret, CursorPosition(column: 2, row: 1))
    }
}
